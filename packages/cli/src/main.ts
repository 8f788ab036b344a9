import { runCli } from "./Program.ts"

/** Entry point of `resale` (started by `bin/resale.js` with the project's Node 22); see `Program.ts`. */
await runCli(process.argv.slice(2))
