// See package.json: nothing here opens SQLite; asking for it is a programming error.
module.exports = function Database() {
  throw new Error("better-sqlite3 is not installed: resale keeps mtcute sessions in memory (MemoryStorage)")
}
