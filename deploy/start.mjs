// The launcher of `npm start` (server), `npm run worker` (worker) and `resale` (cli):
//   node deploy/start.mjs server|worker|cli [arguments]
// Runs the entry's bundle (`bundle.mjs`) when it is fresh; when any file it was made of changed, builds it
// again first; when that is impossible (a read-only install, esbuild missing) runs the TypeScript
// sources, which is correct but slower to start. A stale bundle never runs.
// RESALE_RUN_SOURCES=true runs the sources always (development; the tests run them directly).
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { build, ENTRIES, freshBuild, ROOT } from "./bundle.mjs"

const name = process.argv[2]
if (!(name in ENTRIES)) {
  process.stderr.write(`usage: node deploy/start.mjs ${Object.keys(ENTRIES).join("|")} [arguments]\n`)
  process.exit(2)
}
// The entry sees its own arguments where it expects them (process.argv[2] onwards).
process.argv.splice(2, 1)

const bundled = async () => {
  // Read here, before any configuration: the same words as every flag of the catalogue (packages/config).
  if (["true", "yes", "on", "1"].includes((process.env["RESALE_RUN_SOURCES"] ?? "").trim().toLowerCase()))
    return undefined
  const fresh = freshBuild()
  if (fresh !== undefined) return fresh
  try {
    return await build()
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error)
    process.stderr.write(
      `resale: the start bundle is out of date and could not be rebuilt (${reason}); running the sources (slower start). Run \`npm run build\` where the install is writable.\n`
    )
    return undefined
  }
}

const dir = await bundled()
await import(pathToFileURL(dir === undefined ? join(ROOT, ENTRIES[name]) : join(dir, `${name}.mjs`)).href)
