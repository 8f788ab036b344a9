/**
 * The CLI next to a running `npm start` on the embedded database: the server serves its PGlite to
 * local processes on a Unix socket in DATA_DIR, and the CLI works through it (reads and writes the
 * server sees at once); once the server has stopped, the CLI opens the data directory itself and finds
 * everything it wrote.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, startEntry, stopEntry } from "../support/ServerEntry.ts"
import { bundledEntry } from "../worker/support/BundledEntry.ts"
import { json, runResale } from "./support/CliHarness.ts"
import { runInProcess } from "./support/InProcessCli.ts"

/** `resale <args>` in this process (see InProcessCli.ts), a client of the server's socket like any other. */
const resale = (args: ReadonlyArray<string>, env: Record<string, string | undefined>) =>
  Effect.promise(() => runInProcess(args, env))

const ADMIN_TOKEN = "beside-server-admin-token-7c41"

describe("resale beside the running server (embedded database)", () => {
  it.live(
    "commands work while the server runs, concurrently with its requests, and after it stopped",
    () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "resale-beside-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const port = yield* Effect.promise(freePort)
        const base = `http://127.0.0.1:${port}`
        const env = {
          DATABASE_URL: undefined,
          DATA_DIR: dataDir,
          PORT: String(port),
          ADMIN_TOKEN,
          TELEGRAM_API_URL: "http://127.0.0.1:9"
        }
        // The server as `npm start` runs it (its start bundle).
        const server = yield* startEntry(
          { ...process.env, ...env, DATABASE_URL: "" },
          port,
          undefined,
          yield* bundledEntry("server")
        )
        assert.isTrue(existsSync(join(dataDir, "pg.sock")))

        const set = yield* resale(["pricing", "set", "--star", "321", "--yes"], env)
        assert.strictEqual(set.code, 0, set.stderr)
        // The server's requests and two CLI commands (the real launcher and one in this process) at the
        // same time, over one embedded session.
        const [shown, status, ready] = yield* Effect.all(
          [
            runResale(["pricing", "show", "--json"], env),
            resale(["db", "status", "--json"], env),
            Effect.promise(() => fetch(`${base}/readyz`).then((r) => r.status))
          ],
          { concurrency: 3 }
        )
        assert.strictEqual(json(shown).star_price_uzs, 321)
        assert.strictEqual(json(status).pending, 0)
        assert.strictEqual(ready, 200)
        const priced = yield* Effect.promise(() =>
          fetch(`${base}/v2/api/pricing`).then((r) => r.json() as Promise<Record<string, unknown>>)
        )
        assert.strictEqual(priced["star_price_uzs"], 321)

        assert.strictEqual(yield* stopEntry(server), 0)
        assert.isFalse(existsSync(join(dataDir, "pg.sock")))
        const after = yield* resale(["pricing", "show", "--json"], env)
        assert.strictEqual(after.code, 0, after.stderr)
        assert.strictEqual(json(after).star_price_uzs, 321)
      }),
    240_000
  )
})
