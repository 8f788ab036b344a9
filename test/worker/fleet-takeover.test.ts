/**
 * The owner of the sandbox world is SIGKILLed while an order is in flight: its payment has just run
 * on the chain (the block is saved in the data directory), and the worker, which looks at the chain
 * only every few seconds, has not yet reported the signed message to Fragment. The worker takes the
 * world over, with the chain and the simulator's sessions and open invoices from the data directory,
 * reports the payment to the invoice it knows and completes the order once, where a lost invoice
 * ("Request not found.") would leave it unknown until it went to the operators (`needs_attention`,
 * reached quickly here with short attention settings).
 */
import { assert, describe, it } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { Context, type Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, NODE, ROOT, startEntry } from "../support/ServerEntry.ts"
import { bundledEntry } from "./support/BundledEntry.ts"
import { freshDatabase } from "./support/SharedWorld.ts"
import { fundedUser } from "./support/WorkerHarness.ts"

// Settings a developer's shell may carry that would change the world the processes use.
const INHERITED = ["TONCENTER_URL", "FRAGMENT_COOKIES", "FRAGMENT_URL", "HOT_WALLET_MNEMONIC", "SANDBOX", "WORKER"]

const environment = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of INHERITED) delete env[name]
  return { ...env, TELEGRAM_API_URL: "http://127.0.0.1:9", ...extra }
}

const killed = (child: ChildProcess) =>
  Effect.promise(
    () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once("exit", () => done())
        child.kill("SIGKILL")
      })
  )

const waitFor = (what: string, check: () => boolean, seconds: number, poll: Duration.Input = "100 millis") =>
  Effect.gen(function* () {
    const deadline = Date.now() + seconds * 1000
    while (!check()) {
      if (Date.now() > deadline) return assert.fail(`timed out waiting for ${what}`)
      yield* Effect.sleep(poll)
    }
  })

describe("the sandbox world's owner dies with an order in flight", () => {
  it.live(
    "paid, not yet reported to the simulated Fragment: after the takeover it completes once, never needs_attention",
    () =>
      Effect.gen(function* () {
        const url = yield* freshDatabase
        const dataDir = mkdtempSync(join(tmpdir(), "resale-fleet-takeover-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const port = yield* Effect.promise(freePort)
        const shared = {
          SANDBOX: "true",
          DATABASE_URL: url,
          DATA_DIR: dataDir,
          PG_POOL_MAX: "4",
          FRAGMENT_SESSION_HOLD: "5 seconds",
          // A payment runs in the next block, and the owner saves the chain right after it.
          SANDBOX_BLOCK_INTERVAL: "1 second"
        }
        const server = yield* startEntry(
          environment({ ...shared, PORT: String(port), WORKER: "false" }),
          port,
          undefined,
          yield* bundledEntry("server")
        )
        yield* Effect.addFinalizer(() => killed(server.child))
        const logFile = join(dataDir, "worker.log")
        const log = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "")
        const worker = spawn(NODE, [yield* bundledEntry("worker")], {
          cwd: ROOT,
          env: environment({
            ...shared,
            WORKER_CONCURRENCY: "2",
            WORKER_POLL_INTERVAL: "50 millis",
            ORDER_LEASE: "2 seconds",
            ORDER_DELIVERY_WAIT: "3 seconds",
            ORDER_RECONCILE_DELAY: "300 millis",
            ORDER_UNKNOWN_RETRY_MAX: "3 seconds",
            // A lost invoice would send the order to the operators within the test's time.
            ORDER_ATTENTION_AFTER: "45 seconds",
            ORDER_ATTENTION_ATTEMPTS: "5",
            // The worker sees its payment landed only this long after: the owner dies before it reports it.
            PAYMENT_POLL_INTERVAL: "3 seconds",
            WORKER_PAYMENTS_INTERVAL: "500 millis",
            WORKER_NOTIFY_INTERVAL: "200 millis"
          }),
          stdio: ["ignore", openSync(logFile, "a"), openSync(logFile, "a")]
        })
        yield* Effect.addFinalizer(() => killed(worker))
        yield* waitFor(
          "the worker to join",
          () => log().includes(`sandbox world of process ${server.child.pid} joined`),
          90
        )

        const sql = Context.get(yield* Layer.build(Layer.fresh(PgConnection.layerFromUrl(url, 2))), SqlClient)
        const shop = CoreServices.pipe(
          Layer.provideMerge(PgStore.layer),
          Layer.provideMerge(PgConnection.layerFromUrl(url, 2))
        )
        const count = (query: string) =>
          Effect.map(sql.unsafe<{ n: bigint }>(query), ([row]) => Number(row?.n ?? 0)).pipe(Effect.orDie)
        const completed = count("SELECT count(*) AS n FROM orders WHERE status = 'completed'")
        const create = (recipient: string) =>
          Effect.gen(function* () {
            const user = yield* fundedUser(5_000_000)
            return yield* (yield* OrderService).create(user.id, { kind: "stars", recipient, stars: 50 })
          }).pipe(Effect.provide(shop))
        // A first order completes: the hot wallet is funded and deployed, no other block is to come.
        yield* create("takeover_warmup")
        const warm = Date.now()
        while ((yield* completed) < 1) {
          if (Date.now() - warm > 120_000) assert.fail(`the first order did not complete:\n${log().slice(-3000)}`)
          yield* Effect.sleep("200 millis")
        }

        const order = yield* create("takeover_r1")
        const chainFile = join(dataDir, "ton-sandbox.json")
        const saved = () => (existsSync(chainFile) ? statSync(chainFile).mtimeMs : 0)
        const payments = count("SELECT count(*) AS n FROM wallet_payments")
        while ((yield* payments) < 2) yield* Effect.sleep("20 millis")
        // Its payment is stored and being sent: the owner dies right after the block that runs it is saved.
        const before = saved()
        yield* waitFor("the payment's block", () => saved() !== before, 60, "5 millis")
        yield* killed(server.child)
        yield* waitFor("the worker to take the world over", () => log().includes("this process owns the world now"), 60)

        const status = Effect.map(
          sql<{ status: string }>`SELECT status FROM orders WHERE id = ${order.id}`,
          ([row]) => row?.status ?? ""
        ).pipe(Effect.orDie)
        const deadline = Date.now() + 150_000
        while (!["completed", "failed", "needs_attention"].includes(yield* status)) {
          if (Date.now() > deadline) assert.fail(`order not settled (${yield* status}):\n${log().slice(-3000)}`)
          yield* Effect.sleep("250 millis")
        }
        assert.strictEqual(yield* status, "completed", `the order completed after the takeover:\n${log().slice(-3000)}`)
        const entries = yield* sql<{ cause: string }>`
          SELECT cause FROM ledger_entries WHERE cause_id = ${String(order.id)} AND cause IN ('order', 'refund')`.pipe(
          Effect.orDie
        )
        assert.deepStrictEqual(
          entries.map((e) => e.cause),
          ["order"],
          "charged once, never refunded"
        )
        assert.strictEqual(yield* payments, 2, "each order paid once")
      }).pipe(Effect.scoped),
    360_000
  )
})
