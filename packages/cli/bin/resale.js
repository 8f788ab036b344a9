#!/usr/bin/env node
// `resale` launcher: re-executes the CLI with the project's pinned Node 22 (its bundle, or the
// TypeScript sources by type stripping), because `npx` or a shell may start this file with an older Node.
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
// The launcher runs the CLI's bundle (rebuilt when a source changed) or its sources: deploy/start.mjs.
const launcher = join(root, "deploy", "start.mjs")
const pinned = join(root, "node_modules", ".bin", process.platform === "win32" ? "node.cmd" : "node")

const supportsTypeStripping = () => {
  const [major, minor] = process.versions.node.split(".").map(Number)
  return major > 22 || (major === 22 && minor >= 19)
}

const node = existsSync(pinned) ? pinned : supportsTypeStripping() ? process.execPath : undefined
if (node === undefined) {
  process.stderr.write(
    `resale: Node >= 22.19 is required (found ${process.versions.node}) and ${pinned} is missing; run npm install\n`
  )
  process.exit(1)
}

const child = spawn(node, [launcher, "cli", ...process.argv.slice(2)], { stdio: "inherit" })
// The child gets Ctrl-C from the terminal itself; forward only signals sent to this process alone.
for (const signal of ["SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal))
}
process.on("SIGINT", () => undefined)
child.on("error", (error) => {
  process.stderr.write(`resale: could not start ${node}: ${error.message}\n`)
  process.exit(1)
})
child.on("exit", (code, signal) => {
  if (signal === null) process.exit(code ?? 1)
  // Die of the same signal, so the caller sees what happened to the child.
  process.removeAllListeners(signal)
  process.kill(process.pid, signal)
})
