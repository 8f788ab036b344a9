/**
 * One sandbox world for separate processes: `npm start` with `WORKER=false` owns the emulated chain
 * and the Fragment simulator of its data directory, `npm run worker` on the same data directory and
 * database joins them. The worker is killed with SIGKILL while account orders are in flight and
 * started again: the restarted worker finds the same chain and the same Fragment invoices, so every
 * order ends completed or refunded exactly once, each payment is on the server's chain, and every
 * balance equals its ledger.
 */
import { assert, describe, it } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { deriveKeys, walletContract } from "@resale/ton"
import { sandboxHotWalletPhrase } from "@resale/ton/TonHotWallet.ts"
import { TonClient } from "@ton/ton"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { entryProcess, freePort, NODE, ROOT, startEntry } from "../support/ServerEntry.ts"
import { worldOf } from "../support/SandboxWorld.ts"
import { bundledEntry } from "./support/BundledEntry.ts"
import { freshDatabase } from "./support/SharedWorld.ts"
import { fundedUser } from "./support/WorkerHarness.ts"

const ORDERS = 8
const KILLS = 3

// Settings a developer's shell may carry that would change the world the processes use.
const INHERITED = [
  "TONCENTER_URL",
  "FRAGMENT_COOKIES",
  "FRAGMENT_URL",
  "HOT_WALLET_MNEMONIC",
  "TELEGRAM_BOT_TOKEN",
  "SESSION_SECRET",
  "ADMIN_TOKEN",
  "SANDBOX",
  "WORKER",
  "PUBLIC_URL",
  "HOST",
  "VAPID_PUBLIC_KEY",
  "VAPID_PRIVATE_KEY"
]

const environment = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of INHERITED) delete env[name]
  return { ...env, TELEGRAM_API_URL: "http://127.0.0.1:9", ...extra }
}

// The processes run the start bundles of these sources, as `npm start` and `npm run worker` do.
const serverMain = bundledEntry("server")
const spawnWorker = (env: NodeJS.ProcessEnv, log: number) =>
  Effect.map(
    bundledEntry("worker"),
    (main): ChildProcess => spawn(NODE, [main], { cwd: ROOT, env, stdio: ["ignore", log, log] })
  )

const killed = (child: ChildProcess) =>
  Effect.promise(
    () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once("exit", () => done())
        child.kill("SIGKILL")
      })
  )

const WORKER_TIMINGS = {
  WORKER_CONCURRENCY: "2",
  WORKER_POLL_INTERVAL: "50 millis",
  ORDER_LEASE: "2 seconds",
  ORDER_DELIVERY_WAIT: "3 seconds",
  ORDER_RECONCILE_DELAY: "300 millis",
  PAYMENT_POLL_INTERVAL: "100 millis",
  PAYMENT_CONFIRM_WAIT: "20 seconds",
  PAYMENT_STALE_AFTER: "3 seconds",
  WORKER_PAYMENTS_INTERVAL: "500 millis",
  WORKER_NOTIFY_INTERVAL: "200 millis",
  FRAGMENT_SESSION_WAIT: "10 seconds"
}

const waitFor = (what: string, check: () => boolean, seconds = 60) =>
  Effect.gen(function* () {
    const deadline = Date.now() + seconds * 1000
    while (!check()) {
      if (Date.now() > deadline) return assert.fail(`timed out waiting for ${what}`)
      yield* Effect.sleep("100 millis")
    }
  })

// Both side by side: each has its own database, data directory, port and processes, and mostly
// waits on them.
describe.concurrent("one sandbox world for the server and a separate worker", () => {
  it.live(
    "SIGKILL of the worker mid-order, restarted: each order completed or refunded exactly once",
    () =>
      Effect.gen(function* () {
        const url = yield* freshDatabase
        const dataDir = mkdtempSync(join(tmpdir(), "resale-shared-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const port = yield* Effect.promise(freePort)
        // A killed worker's Fragment session is free again after FRAGMENT_SESSION_HOLD (3 minutes by default).
        const shared = {
          SANDBOX: "true",
          DATABASE_URL: url,
          DATA_DIR: dataDir,
          PG_POOL_MAX: "4",
          FRAGMENT_SESSION_HOLD: "5 seconds"
        }
        const server = yield* entryProcess(
          environment({ ...shared, PORT: String(port), WORKER: "false" }),
          port,
          yield* serverMain
        )
        assert.include(server.output(), "worker: not in this process")
        const world = yield* worldOf(dataDir)
        assert.strictEqual(world.pid, server.child.pid, "the server owns the sandbox world")

        const sql = Context.get(yield* Layer.build(Layer.fresh(PgConnection.layerFromUrl(url, 2))), SqlClient)
        const shop = CoreServices.pipe(
          Layer.provideMerge(PgStore.layer),
          Layer.provideMerge(PgConnection.layerFromUrl(url, 2))
        )
        const buyer = yield* Effect.gen(function* () {
          const orders = yield* OrderService
          const user = yield* fundedUser(50_000_000)
          for (let i = 0; i < ORDERS; i++) {
            yield* i % 4 === 3
              ? orders.create(user.id, { kind: "premium", recipient: `shared_r${i}`, months: 3 })
              : orders.create(user.id, { kind: "stars", recipient: `shared_r${i}`, stars: 50 + i })
          }
          return user
        }).pipe(Effect.provide(shop))

        const env = environment({ ...shared, ...WORKER_TIMINGS })
        const logFile = join(dataDir, "worker.log")
        const log = openSync(logFile, "a")
        const count = (query: string) =>
          Effect.map(sql.unsafe<{ n: bigint }>(query), ([row]) => Number(row?.n ?? 0)).pipe(Effect.orDie)
        const open = count("SELECT count(*) AS n FROM orders WHERE status IN ('queued', 'processing')")
        const processing = count("SELECT count(*) AS n FROM orders WHERE status = 'processing'")

        // Each time: wait until an order is being worked on, let it get somewhere, kill the worker.
        let midOrderKills = 0
        for (let kill = 0; kill < KILLS && (yield* open) > 0; kill++) {
          const child = yield* spawnWorker(env, log)
          const startedAt = Date.now()
          while ((yield* processing) === 0 && (yield* open) > 0 && Date.now() - startedAt < 90_000)
            yield* Effect.sleep("20 millis")
          yield* Effect.sleep(`${100 + Math.floor(Math.random() * 900)} millis`)
          if ((yield* processing) > 0) midOrderKills++
          yield* killed(child)
        }
        assert.isAtLeast(midOrderKills, 1, "the worker was killed at least once with an order in flight")

        // The last start runs until everything settled.
        const last = yield* spawnWorker(env, log)
        yield* Effect.addFinalizer(() => killed(last))
        const deadline = Date.now() + 240_000
        while ((yield* open) > 0) {
          if (Date.now() > deadline)
            assert.fail(`orders did not settle:\n${readFileSync(logFile, "utf8").slice(-4000)}`)
          yield* Effect.sleep("250 millis")
        }
        yield* killed(last)

        const orders = yield* sql<{ id: bigint; status: string; tx_id: string | null }>`
        SELECT id, status, tx_id FROM orders ORDER BY id`.pipe(Effect.orDie)
        const entries = yield* sql<{ cause: string; cause_id: string }>`
        SELECT cause, cause_id FROM ledger_entries WHERE cause IN ('order', 'refund')`.pipe(Effect.orDie)
        assert.strictEqual(orders.length, ORDERS)
        for (const order of orders) {
          const causes = entries
            .filter((e) => e.cause_id === String(order.id))
            .map((e) => e.cause)
            .sort()
          if (order.status === "completed") assert.deepStrictEqual(causes, ["order"], `order ${order.id} charged once`)
          else
            assert.deepStrictEqual(
              [order.status, causes],
              ["failed", ["order", "refund"]],
              `order ${order.id} refunded once`
            )
        }
        // Every delivered order was paid on the server's chain (the world the worker joined).
        const completed = orders.filter((o) => o.status === "completed")
        assert.isAbove(completed.length, 0)
        const chain = new TonClient({ endpoint: world.toncenter })
        const paid = new Set<string>()
        for (const order of completed) {
          assert.isNotNull(order.tx_id, `order ${order.id} has its payment`)
        }
        const [key] = yield* deriveKeys(sandboxHotWalletPhrase())
        const hot = walletContract("v5r1", key!.key.publicKey, -239).address
        const txs = yield* Effect.tryPromise(() => chain.getTransactions(hot, { limit: 100, archival: true })).pipe(
          Effect.catch(() =>
            Effect.die(new Error(`the server's chain cannot be read; server output:\n${server.output().slice(-4000)}`))
          )
        )
        for (const tx of txs) paid.add(tx.hash().toString("hex"))
        assert.isTrue(
          completed.every((o) => paid.has(o.tx_id ?? "")),
          "each payment is a transaction of the shared chain"
        )
        assert.include(readFileSync(logFile, "utf8"), `sandbox world of process ${server.child.pid} joined`)

        const [balance] = yield* sql<{ balance: bigint; total: string | null }>`
        SELECT a.balance_uzs AS balance, (SELECT sum(amount_uzs) FROM ledger_entries e WHERE e.user_id = a.user_id) AS total
        FROM accounts a WHERE a.user_id = ${buyer.id}`.pipe(Effect.orDie)
        assert.strictEqual(Number(balance?.balance), Number(balance?.total ?? 0))
      }).pipe(Effect.scoped),
    480_000
  )

  it.live(
    "the owner is killed: the worker takes the world over, an order completes, the restarted server joins it",
    () =>
      Effect.gen(function* () {
        const url = yield* freshDatabase
        const dataDir = mkdtempSync(join(tmpdir(), "resale-takeover-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const port = yield* Effect.promise(freePort)
        const shared = {
          SANDBOX: "true",
          DATABASE_URL: url,
          DATA_DIR: dataDir,
          PG_POOL_MAX: "4",
          FRAGMENT_SESSION_HOLD: "5 seconds"
        }
        const serverEnv = environment({
          ...shared,
          PORT: String(port),
          WORKER: "false",
          ADMIN_TOKEN: "takeover-admin-token-of-24+"
        })
        const first = yield* startEntry(serverEnv, port, undefined, yield* serverMain)
        const logFile = join(dataDir, "worker.log")
        const worker = yield* spawnWorker(environment({ ...shared, ...WORKER_TIMINGS }), openSync(logFile, "a"))
        yield* Effect.addFinalizer(() => killed(worker))
        const log = () => readFileSync(logFile, "utf8")
        yield* waitFor("the worker to join", () => log().includes(`sandbox world of process ${first.child.pid} joined`))

        // The owner dies: the worker owns the world now (the chain from DATA_DIR, so the funded hot wallet too).
        yield* killed(first.child)
        yield* waitFor("the worker to take the world over", () => log().includes("this process owns the world now"))
        assert.strictEqual((yield* worldOf(dataDir)).pid, worker.pid)

        const sql = Context.get(yield* Layer.build(Layer.fresh(PgConnection.layerFromUrl(url, 2))), SqlClient)
        const shop = CoreServices.pipe(
          Layer.provideMerge(PgStore.layer),
          Layer.provideMerge(PgConnection.layerFromUrl(url, 2))
        )
        const order = yield* Effect.gen(function* () {
          const user = yield* fundedUser(5_000_000)
          return yield* (yield* OrderService).create(user.id, { kind: "stars", recipient: "takeover_r1", stars: 100 })
        }).pipe(Effect.provide(shop))
        const status = () =>
          Effect.map(
            sql<{ status: string }>`SELECT status FROM orders WHERE id = ${order.id}`,
            ([row]) => row?.status
          ).pipe(Effect.orDie)
        const deadline = Date.now() + 120_000
        while ((yield* status()) !== "completed") {
          if (Date.now() > deadline) assert.fail(`order not completed (${yield* status()}):\n${log().slice(-3000)}`)
          yield* Effect.sleep("200 millis")
        }

        // The server started again joins the worker's world; its faucet works through it.
        const second = yield* entryProcess(serverEnv, port, yield* serverMain)
        assert.strictEqual((yield* worldOf(dataDir)).pid, worker.pid)
        const [key] = yield* deriveKeys(sandboxHotWalletPhrase())
        const address = walletContract("v5r1", key!.key.publicKey, -239).address.toString({ bounceable: false })
        const fund = yield* Effect.promise(() =>
          fetch(`http://127.0.0.1:${port}/v2/api/admin/sandbox/fund`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-admin-token": "takeover-admin-token-of-24+" },
            body: JSON.stringify({ address, amount_ton: "1" })
          })
        )
        assert.strictEqual(fund.status, 200, yield* Effect.promise(() => fund.text()))
        assert.include(second.output(), `sandbox world of process ${worker.pid} joined`)
      }).pipe(Effect.scoped),
    300_000
  )
})
