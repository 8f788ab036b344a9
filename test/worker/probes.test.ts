/**
 * `npm run worker` apart from the server, with WORKER_PROBE_PORT: `/livez`, `/readyz` (database and its
 * own loops) and `/metrics` answer on that port; its log is JSON lines ending with `worker: shutdown done`
 * after SIGTERM (exit code 0).
 */
import { assert, describe, it } from "@effect/vitest"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, NODE, ROOT } from "../support/ServerEntry.ts"
import { bundledEntry } from "./support/BundledEntry.ts"

const get = (url: string, headers: Record<string, string> = {}) =>
  Effect.promise(() =>
    fetch(url, { headers, signal: AbortSignal.timeout(5_000) }).then(
      async (r) => ({ status: r.status, text: await r.text() }),
      () => undefined
    )
  )

describe("worker probes", () => {
  it.live(
    "/livez, /readyz and /metrics of a worker run apart; JSON log; clean stop",
    () =>
      Effect.gen(function* () {
        const name = uniqueName("worker_probes")
        yield* Effect.acquireRelease(createDatabase(name), () => dropDatabase(name).pipe(Effect.orDie)).pipe(
          Effect.orDie
        )
        const dataDir = mkdtempSync(join(tmpdir(), "resale-worker-probes-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const port = yield* Effect.promise(freePort)
        // The start bundle of these sources, as `npm run worker` runs it.
        const child = spawn(NODE, [yield* bundledEntry("worker")], {
          cwd: ROOT,
          env: {
            PATH: process.env["PATH"],
            DATABASE_URL: databaseUrl(name),
            DATA_DIR: dataDir,
            WORKER_PROBE_PORT: String(port)
          },
          stdio: ["ignore", "pipe", "pipe"]
        })
        let stdout = ""
        child.stdout!.on("data", (d) => (stdout += d))
        child.stderr!.on("data", (d) => (stdout += d))
        yield* Effect.addFinalizer(() => Effect.sync(() => child.kill("SIGKILL")))
        const base = `http://127.0.0.1:${port}`

        let ready: { status: number; text: string } | undefined
        for (let attempt = 0; attempt < 240 && ready?.status !== 200; attempt++) {
          if (child.exitCode !== null) return yield* Effect.die(new Error(`the worker exited:\n${stdout}`))
          yield* Effect.sleep("500 millis")
          ready = yield* get(`${base}/readyz`)
        }
        assert.strictEqual(ready?.status, 200, stdout)
        assert.deepStrictEqual(JSON.parse(ready!.text).checks, { database: "ok", worker: "ok" })
        assert.strictEqual((yield* get(`${base}/livez`))?.status, 200)
        const metrics = yield* get(`${base}/metrics`)
        assert.strictEqual(metrics?.status, 200)
        for (const line of metrics!.text.split("\n").filter((l) => l !== "" && !l.startsWith("#"))) {
          assert.match(line, /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? \S+$/)
        }
        // Relayed by a proxy: not local, and without METRICS_TOKEN no token reads it.
        assert.strictEqual((yield* get(`${base}/metrics`, { "x-forwarded-for": "203.0.113.9" }))?.status, 401)
        assert.strictEqual((yield* get(`${base}/nothing`))?.status, 404)

        const code = yield* Effect.promise(
          () =>
            new Promise<number | null>((resolve) => {
              // `close`: after the output is read to the end (`exit` may come first).
              child.once("close", (c) => resolve(c))
              child.kill("SIGTERM")
            })
        )
        assert.strictEqual(code, 0, stdout)
        const lines = stdout
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => JSON.parse(l) as Record<string, unknown>)
        assert.strictEqual(lines[0]!["message"], "worker started")
        assert.strictEqual(lines.at(-1)!["message"], "worker: shutdown done")
      }),
    180_000
  )
})
