/**
 * Crash safety: the worker runs as its own process (the start bundle of `packages/worker/src/main.ts`
 * on Node 22, as `npm run worker` starts it) against real PostgreSQL, a loopback toncenter over the TON VM and the
 * Fragment simulator, all living in this test process (the sandbox world of the worker's data directory,
 * `support/OwnedWorld.ts`) so they outlive the worker. It is killed with
 * SIGKILL at random moments during 50 orders and started again each time. Afterwards every order is
 * completed or refunded exactly once, every payment happened once on chain, every gift was sent
 * once, and every balance equals the sum of its ledger entries.
 */
import { assert, describe, it } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import type { Nanoton } from "@resale/core/money/Nanoton.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { FragmentSimulator, parseCommentPayload } from "@resale/marketplace"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { deriveKeys, SandboxBlockchain, walletContract } from "@resale/ton"
import { sandboxHotWalletPhrase } from "@resale/ton/TonHotWallet.ts"
import { SANDBOX_GIFTS, type SentGiftRecord } from "@resale/telegram/SimulatedGiftSender.ts"
import { Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { type ChildProcess, spawn } from "node:child_process"
import { copyFileSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { startToncenterServer } from "../../packages/ton/test/support/ToncenterServer.ts"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"
import { bundledEntry } from "./support/BundledEntry.ts"
import { ownSandboxWorld } from "./support/OwnedWorld.ts"
import { freshDatabase } from "./support/SharedWorld.ts"
import { fundedUser } from "./support/WorkerHarness.ts"

const ORDERS = 50
const ROOT = resolve(import.meta.dirname, "../..")
const NODE = join(ROOT, "node_modules/.bin/node")

// As `npm run worker` runs it (its flags, the bundle of these sources).
const spawnWorker = (main: string, env: Record<string, string>, log: number): ChildProcess =>
  spawn(NODE, ["--max-semi-space-size=4", main], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", log, log]
  })

/** Sends `signal` and waits for the exit; how long it took and whether the process ended by itself. */
const stopped = (child: ChildProcess, signal: "SIGKILL" | "SIGTERM") =>
  Effect.promise(
    () =>
      new Promise<{ readonly ms: number; readonly byItself: boolean }>((done) => {
        const at = Date.now()
        if (child.exitCode !== null || child.signalCode !== null)
          return done({ ms: 0, byItself: child.signalCode === null })
        child.once("exit", (_code, by) => done({ ms: Date.now() - at, byItself: by === null }))
        child.kill(signal)
      })
  )

const killed = (child: ChildProcess) => Effect.asVoid(stopped(child, "SIGKILL"))

/**
 * 50 orders worked on by a worker process that is stopped with `signal` at random moments while it
 * works (at most 8 times) and started again, then left to finish; checks every order settled once.
 */
const scenario = (signal: "SIGKILL" | "SIGTERM", version: "v5r1" | "highload-v3" = "v5r1") =>
  Effect.gen(function* () {
    const url = yield* freshDatabase
    const sandbox = yield* SandboxBlockchain
    const chain = yield* Blockchain
    // The chain runs in blocks (300 ms), as the network does: a batch fills while the previous one waits.
    const toncenter = yield* startToncenterServer(sandbox)
    // Like fragment.com, it sees the payment on chain itself, reported or not.
    const fragment = yield* FragmentSimulator.scoped({ paymentSeen: paymentSeenOn(sandbox.emulator) })
    const dataDir = mkdtempSync(join(tmpdir(), `resale-${signal.toLowerCase()}-`))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
    // The worker joins this process's chain and simulator as the sandbox world of its data directory.
    yield* ownSandboxWorld(dataDir, { toncenter: toncenter.url, fragment: fragment.url, cookies: fragment.cookies })

    // The hot wallet the worker pays from, funded on the chain this process owns.
    const phrase = sandboxHotWalletPhrase()
    const [key] = yield* deriveKeys(phrase)
    const hotAddress = walletContract(version, key!.key.publicKey, -239).address
    yield* sandbox.fund(hotAddress.toString({ bounceable: false }), (100_000n * 1_000_000_000n) as Nanoton)

    // 50 queued orders: 20 stars, 10 premium, 20 gifts; one Fragment refusal (already subscribed).
    fragment.control.subscribed("crash_r7")
    const sql = Context.get(yield* Layer.build(Layer.fresh(PgConnection.layerFromUrl(url, 2))), SqlClient)
    const shop = CoreServices.pipe(
      Layer.provideMerge(PgStore.layer),
      Layer.provideMerge(PgConnection.layerFromUrl(url, 3))
    )
    const user = yield* Effect.gen(function* () {
      const orders = yield* OrderService
      const buyer = yield* fundedUser(100_000_000)
      for (let i = 0; i < ORDERS; i++) {
        const recipient = `crash_r${i}`
        const gift = SANDBOX_GIFTS[i % SANDBOX_GIFTS.length]!
        yield* i % 5 < 2
          ? orders.create(buyer.id, { kind: "stars", recipient, stars: 50 + i })
          : i % 5 === 2
            ? orders.create(buyer.id, { kind: "premium", recipient, months: 3 })
            : orders.create(buyer.id, { kind: "gift", recipient, gift: { id: gift.id, stars: gift.stars } })
      }
      return buyer
    }).pipe(Effect.provide(shop))

    const env: Record<string, string> = {
      SANDBOX: "true",
      DATABASE_URL: url,
      PG_POOL_MAX: "4",
      DATA_DIR: dataDir,
      // a killed worker's purchase keeps the Fragment session until its hold runs out (timings scaled down)
      FRAGMENT_SESSION_HOLD: "10 seconds",
      HOT_WALLET_MNEMONIC: Redacted.value(phrase),
      // Batching on: the orders this worker carries at once are paid by one message of the hot wallet.
      HOT_WALLET_VERSION: version,
      HOT_WALLET_BATCH: "255",
      WORKER_CONCURRENCY: "6",
      WORKER_POLL_INTERVAL: "50 millis",
      ORDER_LEASE: "2 seconds",
      ORDER_DELIVERY_WAIT: "3 seconds",
      ORDER_RECONCILE_DELAY: "300 millis",
      PAYMENT_POLL_INTERVAL: "100 millis",
      PAYMENT_CONFIRM_WAIT: "20 seconds",
      PAYMENT_STALE_AFTER: "3 seconds",
      WORKER_PAYMENTS_INTERVAL: "500 millis",
      WORKER_NOTIFY_INTERVAL: "200 millis"
    }
    const log = openSync(join(dataDir, "worker.log"), "a")
    const main = yield* bundledEntry("worker")
    const open = Effect.map(
      sql<{ n: bigint }>`SELECT count(*) AS n FROM orders WHERE status IN ('queued', 'processing')`,
      ([row]) => Number(row?.n ?? 1)
    ).pipe(Effect.orDie)

    // Kill at random moments while it works (after it started), start again each time.
    const starts = () => (readFileSync(join(dataDir, "worker.log"), "utf8").match(/worker started/g) ?? []).length
    let kills = 0
    const started = Date.now()
    while ((yield* open) > 0 && kills < 8) {
      const before = starts()
      const child = spawnWorker(main, env, log)
      const spawnedAt = Date.now()
      while (starts() === before && child.exitCode === null && Date.now() - spawnedAt < 60_000)
        yield* Effect.sleep("50 millis")
      yield* Effect.sleep(`${200 + Math.floor(Math.random() * 2800)} millis`)
      const stop = yield* stopped(child, signal)
      // A graceful stop finishes the payment under way, hands its orders back and exits by itself.
      if (signal === "SIGTERM") {
        assert.isTrue(stop.byItself, "the worker exited by itself after SIGTERM")
        assert.isBelow(stop.ms, 30_000)
        const [busy] = yield* sql<{ n: bigint }>`SELECT count(*) AS n FROM orders WHERE status = 'processing'`.pipe(
          Effect.orDie
        )
        assert.strictEqual(Number(busy?.n), 0, "no order left processing by a stopped worker")
      }
      kills++
    }
    // The last start runs until everything settled.
    const last = spawnWorker(main, env, log)
    yield* Effect.addFinalizer(() => killed(last))
    while ((yield* open) > 0) {
      if (Date.now() - started > 400_000) {
        // Kept for the post-mortem: the data directory goes with the test.
        copyFileSync(join(dataDir, "worker.log"), join(tmpdir(), `resale-${signal.toLowerCase()}-worker.log`))
        return yield* Effect.die(
          new Error(
            `orders did not settle; worker log in ${join(tmpdir(), `resale-${signal.toLowerCase()}-worker.log`)}`
          )
        )
      }
      yield* Effect.sleep("250 millis")
    }
    yield* killed(last)
    const text = readFileSync(join(dataDir, "worker.log"), "utf8")
    const count = (pattern: RegExp) => text.split("\n").filter((line) => pattern.test(line)).length
    console.log(
      `${signal} (${version}): ${kills} stops, settled after ${Date.now() - started} ms; ` +
        `${count(/resumed \d+ order/)} resumes of orders, ${count(/reconciling direct order/)} payment reconciliations, ` +
        `${count(/Unknown \{/)} unknown outcomes, ${count(/worker started/)} starts, ${count(/order \d+: \w+/)} attempts, ` +
        `${count(/queued invoices handed back unsigned/)} stops that handed queued invoices back`
    )

    const orders = yield* sql<{
      id: bigint
      kind: string
      status: string
      recipient: string
      tx_id: string | null
      fragment_ref: string | null
      price_uzs: bigint
    }>`
        SELECT id, kind, status, recipient, tx_id, fragment_ref, price_uzs FROM orders ORDER BY id`.pipe(Effect.orDie)
    const entries = yield* sql<{ cause: string; cause_id: string; amount_uzs: bigint }>`
        SELECT cause, cause_id, amount_uzs FROM ledger_entries WHERE cause IN ('order', 'refund')`.pipe(Effect.orDie)
    assert.strictEqual(orders.length, ORDERS)
    for (const order of orders) {
      const mine = entries.filter((e) => e.cause_id === String(order.id))
      if (order.status === "completed") {
        assert.deepStrictEqual(
          mine.map((e) => e.cause),
          ["order"],
          `order ${order.id} charged once, never refunded`
        )
      } else {
        assert.strictEqual(order.status, "failed", `order ${order.id} settled`)
        assert.deepStrictEqual(mine.map((e) => e.cause).sort(), ["order", "refund"], `order ${order.id} refunded once`)
      }
    }
    // The only refusal is the already subscribed recipient; everything else was delivered.
    assert.deepStrictEqual(
      orders.filter((o) => o.status === "failed").map((o) => o.recipient),
      ["crash_r7"]
    )

    // Chain: one payment to Fragment per completed stars/premium order, each carrying its own Ref#
    // (a transaction of a batch carries several).
    const txs = yield* Effect.promise(() => sandbox.emulator.getTransactions(hotAddress))
    // (A highload batch's payments leave from the run of its message to itself.)
    const refsPaid = txs.flatMap((tx) =>
      tx.outMessages
        .values()
        .filter((m) => m.info.type === "internal" && !m.info.dest.equals(hotAddress))
        .map((m) => parseCommentPayload(m.body.toBoc().toString("base64"))?.ref)
        .filter((r) => r !== undefined)
    )
    const paidOrders = orders.filter((o) => o.kind !== "gift" && o.status === "completed")
    assert.strictEqual(refsPaid.length, paidOrders.length)
    assert.deepStrictEqual(refsPaid.toSorted(), paidOrders.map((o) => o.fragment_ref ?? "").toSorted())
    for (const order of paidOrders) {
      assert.strictEqual(fragment.control.invoiceByRef(order.fragment_ref ?? "")?.username, order.recipient)
    }
    const onChain = new Set(txs.map((tx) => tx.hash().toString("hex")))
    assert.isTrue(paidOrders.every((o) => onChain.has(o.tx_id ?? "")))
    assert.isTrue((yield* chain.balance(hotAddress.toString())) > 0n)

    // Gifts: the simulated Telegram's log holds exactly one gift per gift order.
    const sent = readFileSync(join(dataDir, "sandbox-gifts.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as SentGiftRecord)
    const giftOrders = orders.filter((o) => o.kind === "gift")
    assert.deepStrictEqual(sent.map((g) => g.recipient).toSorted(), giftOrders.map((o) => o.recipient).toSorted())

    // Every balance equals its entries.
    const balances = yield* sql<{ user_id: bigint; balance: bigint; total: string | null }>`
        SELECT a.user_id, a.balance_uzs AS balance, (SELECT sum(amount_uzs) FROM ledger_entries e WHERE e.user_id = a.user_id) AS total
        FROM accounts a`.pipe(Effect.orDie)
    for (const row of balances) assert.strictEqual(Number(row.balance), Number(row.total ?? 0))
    const spent = orders.filter((o) => o.status === "completed").reduce((sum, o) => sum + Number(o.price_uzs), 0)
    assert.strictEqual(Number(balances.find((b) => Number(b.user_id) === user.id)?.balance), 100_000_000 - spent)
  }).pipe(Effect.provide(SandboxBlockchain.layerWith({ expiryMarginSeconds: 5, blockInterval: "300 millis" })))

// The two scenarios side by side: each has its own database, chain, simulator, data directory and
// worker process, and spends most of its time waiting on that process (starts, holds, kills), so one
// test worker carries both in the time of the longer one instead of the sum of both.
describe.concurrent("crash safety", () => {
  it.live(
    "SIGKILL at random moments during 50 orders, restarted: each order completed or refunded exactly once",
    () => scenario("SIGKILL"),
    480_000
  )
  it.live(
    "SIGKILL at random moments, paying from a Highload Wallet V3: each order completed or refunded exactly once",
    () => scenario("SIGKILL", "highload-v3"),
    480_000
  )
  it.live(
    "SIGTERM during 50 orders: the worker stops gracefully, leaves nothing processing, and the orders finish once",
    () => scenario("SIGTERM"),
    480_000
  )
})
