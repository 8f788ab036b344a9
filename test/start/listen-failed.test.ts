/**
 * `npm start` on an address it cannot listen on (another process has the port): the process ends
 * with exit 1 and one line naming the address, the reason and what to do, not effect's bare
 * "ServeError" (which named neither), and without a stack trace.
 */
import { assert, describe, it } from "@effect/vitest"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { createServer, type Server } from "node:net"
import { NODE, ROOT } from "../support/ServerEntry.ts"
import { bundledEntry } from "../worker/support/BundledEntry.ts"

const taken = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ readonly server: Server; readonly port: number }>((resolve) => {
        const server = createServer().listen(0, "127.0.0.1", () =>
          resolve({ server, port: (server.address() as { port: number }).port })
        )
      })
  ),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
)

describe("npm start on a port already taken", () => {
  it.live(
    "stops with exit 1 and one line: the address, the reason and what to do",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { port } = yield* taken
          const name = uniqueName("listen_failed")
          yield* createDatabase(name)
          yield* Effect.addFinalizer(() => Effect.orDie(dropDatabase(name)))
          const main = yield* bundledEntry("server")
          const { code, output } = yield* Effect.promise(
            () =>
              new Promise<{ readonly code: number | null; readonly output: string }>((resolve) => {
                const env = {
                  PATH: process.env["PATH"] ?? "",
                  SANDBOX: "true",
                  WORKER: "false",
                  HOST: "127.0.0.1",
                  PORT: String(port),
                  DATABASE_URL: databaseUrl(name),
                  LOG_FORMAT: "json"
                }
                execFile(NODE, [main], { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) =>
                  resolve({
                    code: error === null ? 0 : typeof error.code === "number" ? error.code : null,
                    output: `${stdout}${stderr}`
                  })
                )
              })
          )
          assert.strictEqual(code, 1, output)
          const stopped = output.split("\n").filter((line) => line.includes("server stopped"))
          assert.lengthOf(stopped, 1, output)
          const line = JSON.parse(stopped[0]!) as { level: string; message: string }
          assert.strictEqual(line.level, "error")
          assert.strictEqual(
            line.message,
            `server stopped: cannot listen on 127.0.0.1:${port}: another process already listens there: stop it, or set PORT to a free port (EADDRINUSE)`
          )
          assert.notInclude(output, "    at ")
        })
      ),
    90_000
  )
})
