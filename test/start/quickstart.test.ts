/**
 * The programmatic quickstart (`docs/quickstart.md`) is true: the server started as `npm start` starts
 * it (its start bundle, embedded database, sandbox mode, worker in process) with the two settings the
 * page asks for, and the page's own script (`docs/quickstart.mjs`) run against it unchanged reaches the
 * order's completion and a verified webhook delivery.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { entryProcess, freePort, NODE, ROOT } from "../support/ServerEntry.ts"
import { bundledEntry } from "../worker/support/BundledEntry.ts"

// Settings a developer's shell may carry that would change what `npm start` does with no configuration.
const INHERITED = [
  "DATABASE_URL",
  "SESSION_SECRET",
  "HOST",
  "SANDBOX",
  "TELEGRAM_BOT_TOKEN",
  "HOT_WALLET_MNEMONIC",
  "PUBLIC_URL",
  "WORKER",
  "TONCENTER_URL",
  "FRAGMENT_COOKIES",
  "FRAGMENT_URL",
  "BASE_URL"
]

const runScript = (env: NodeJS.ProcessEnv) =>
  Effect.promise(
    () =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          NODE,
          [join(ROOT, "docs/quickstart.mjs")],
          { cwd: ROOT, env, timeout: 300_000 },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })
        )
      })
  )

describe("the sandbox quickstart", () => {
  it.live(
    "docs/quickstart.mjs against npm start: signed in, topped up, stars completed, webhook verified",
    () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "resale-quickstart-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const port = yield* Effect.promise(freePort)
        const base = `http://127.0.0.1:${port}`
        const env: NodeJS.ProcessEnv = { ...process.env }
        for (const name of INHERITED) delete env[name]
        const token = "quickstart-admin-token"
        const server = {
          ...env,
          PORT: String(port),
          DATA_DIR: dataDir,
          ADMIN_TOKEN: token,
          WEBHOOKS_ALLOW_LOOPBACK: "true",
          TELEGRAM_API_URL: "http://127.0.0.1:9"
        }
        const started = yield* entryProcess(server, port, yield* bundledEntry("server"))
        assert.include(started.output(), `sandbox sign-in: ${base}/v2/auth/sandbox?user=demo`)

        const run = yield* runScript({ ...env, BASE_URL: base, ADMIN_TOKEN: token })
        assert.strictEqual(run.code, 0, `${run.stdout}\n${run.stderr}`)
        const last = run.stdout.trim().split("\n").at(-1) ?? ""
        assert.match(last, /^quickstart: done /)
        const done = JSON.parse(last.slice("quickstart: done ".length))
        assert.strictEqual(done.order_status, "completed")
        assert.strictEqual(done.webhook_type, "order.completed")
        assert.isTrue(done.webhook_verified)
        assert.match(done.webhook_id, /^evt_[0-9A-Za-z]{22}$/)
      }).pipe(Effect.scoped),
    300_000
  )
})
