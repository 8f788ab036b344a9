/**
 * The server as `npm start` runs it: its own Node process on `packages/http/src/main.ts`, configured
 * from the environment, over a fresh database on the test PostgreSQL server.
 */
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = fileURLToPath(new URL("../../..", import.meta.url))

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0))
    })
  })

/** A started server process (stopped with the scope) and its base URL. */
export const serverProcess = (env: Record<string, string>) =>
  Effect.gen(function*() {
    const name = uniqueName("resale_t")
    yield* Effect.acquireRelease(createDatabase(name), () => dropDatabase(name).pipe(Effect.orDie)).pipe(Effect.orDie)
    const port = yield* Effect.promise(freePort)
    const dataDir = mkdtempSync(join(tmpdir(), "resale-web-proc-"))
    const base = `http://127.0.0.1:${port}`
    yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const child = spawn(`${ROOT}node_modules/.bin/node`, ["packages/http/src/main.ts"], {
          cwd: ROOT,
          env: { ...process.env, PORT: String(port), DATABASE_URL: databaseUrl(name), DATA_DIR: dataDir, PUBLIC_URL: base, ...env },
          stdio: ["ignore", "pipe", "pipe"]
        })
        let output = ""
        child.stdout!.on("data", (d) => (output += d))
        child.stderr!.on("data", (d) => (output += d))
        for (let i = 0; i < 200 && child.exitCode === null; i++) {
          const up = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false)
          if (up) return child
          await new Promise((r) => setTimeout(r, 200))
        }
        child.kill("SIGTERM")
        throw new Error(`server did not start:\n${output}`)
      }),
      (child: ChildProcess) =>
        Effect.promise(() =>
          new Promise<void>((resolve) => {
            const done = () => {
              rmSync(dataDir, { recursive: true, force: true })
              resolve()
            }
            if (child.exitCode !== null || child.signalCode !== null) return done()
            child.once("exit", done)
            child.kill("SIGTERM")
          })
        )
    )
    return base
  })
