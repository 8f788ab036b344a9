/**
 * The real entry (`packages/http/src/main.ts`) in its own Node process, as `npm start` runs it:
 * a free loopback port, start and wait until it is up, stop and read its exit code.
 */
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"

export const ROOT = fileURLToPath(new URL("../..", import.meta.url))
export const NODE = `${ROOT}node_modules/.bin/node`

/** A port nothing listens on right now. */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0))
    })
  })

export interface StartedEntry {
  readonly child: ChildProcess
  /** Everything the process has printed so far (stdout and stderr). */
  readonly output: () => string
  /** What it has printed on stdout alone (its log lines). */
  readonly stdout: () => string
}

/**
 * Starts the entry with exactly `env` and waits until `/healthz` answers 200 and the start banner
 * is printed (it may follow the first 200 by a moment). `main`: the module node runs, the sources'
 * entry unless given (e.g. its start bundle).
 */
export const startEntry = (
  env: NodeJS.ProcessEnv,
  port: number,
  timeoutMs = 120_000,
  main = "packages/http/src/main.ts"
) =>
  Effect.promise(async (): Promise<StartedEntry> => {
    const child = spawn(NODE, [main], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    let stdout = ""
    child.stdout!.on("data", (d) => {
      output += d
      stdout += d
    })
    child.stderr!.on("data", (d) => (output += d))
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline && child.exitCode === null) {
      const health = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status,
        () => 0
      )
      if (health === 200 && output.includes("API reference:"))
        return { child, output: () => output, stdout: () => stdout }
      await new Promise((r) => setTimeout(r, 200))
    }
    child.kill("SIGKILL")
    throw new Error(`the server did not come up:\n${output}`)
  })

/** SIGTERM, then the exit code (or signal) once the process has stopped; SIGKILL after a minute. */
export const stopEntry = (started: StartedEntry) =>
  Effect.promise(
    () =>
      new Promise<number | string>((resolve) => {
        const { child } = started
        if (child.exitCode !== null || child.signalCode !== null)
          return resolve(child.exitCode ?? String(child.signalCode))
        const killer = setTimeout(() => child.kill("SIGKILL"), 60_000)
        child.once("exit", (code, signal) => {
          clearTimeout(killer)
          resolve(code ?? String(signal))
        })
        child.kill("SIGTERM")
      })
  )

/** A started entry, stopped when the scope closes. */
export const entryProcess = (env: NodeJS.ProcessEnv, port: number, main?: string) =>
  Effect.acquireRelease(startEntry(env, port, undefined, main), (started) => Effect.asVoid(stopEntry(started)))
