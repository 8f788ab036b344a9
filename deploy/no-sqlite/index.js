// See package.json: nothing here opens SQLite; asking for it is a programming error.
export default function Database() {
  throw new Error("better-sqlite3 is not installed: resale keeps mtcute sessions in memory (MemoryStorage)")
}
