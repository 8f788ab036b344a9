/**
 * Gifts exactly once across a fleet of workers in sandbox mode. Two worker processes on one data
 * directory and database: worker B starts (its gift sender reads the sent-gift log then) and is
 * frozen with SIGSTOP; worker A takes the gift order, sends the gift (to `sandbox_gift_lost`, so its
 * answer is lost and the order waits for a check) and is SIGKILLed as soon as the send is in the
 * log. B is let go and takes the order over: the shared log tells it the gift was sent, so it
 * completes the order without sending again, as reading the account's history does in production.
 */
import { assert, describe, it } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import type { Nanoton } from "@resale/core/money/Nanoton.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { FragmentSimulator } from "@resale/marketplace"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { GIFT_MAGIC, SANDBOX_GIFTS } from "@resale/telegram/SimulatedGiftSender.ts"
import { deriveKeys, SandboxBlockchain, walletContract } from "@resale/ton"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"
import { sandboxHotWalletPhrase } from "@resale/ton/TonHotWallet.ts"
import { Context, type Duration, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { startToncenterServer } from "../../packages/ton/test/support/ToncenterServer.ts"
import { bundledEntry } from "./support/BundledEntry.ts"
import { ownSandboxWorld } from "./support/OwnedWorld.ts"
import { freshDatabase } from "./support/SharedWorld.ts"
import { fundedUser } from "./support/WorkerHarness.ts"

const ROOT = resolve(import.meta.dirname, "../..")
const NODE = join(ROOT, "node_modules/.bin/node")

const spawnWorker = (main: string, env: Record<string, string>, logFile: string): ChildProcess => {
  const log = openSync(logFile, "a")
  return spawn(NODE, [main], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", log, log] })
}

const signalled = (child: ChildProcess, signal: "SIGSTOP" | "SIGCONT") => Effect.sync(() => child.kill(signal))

const killed = (child: ChildProcess) =>
  Effect.promise(
    () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once("exit", () => done())
        // A frozen process is let go first, so it dies at once.
        child.kill("SIGCONT")
        child.kill("SIGKILL")
      })
  )

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "")
const lines = (file: string) =>
  read(file)
    .split("\n")
    .filter((l) => l.trim() !== "")

const waitFor = (what: string, check: () => boolean, seconds: number, poll: Duration.Input = "50 millis") =>
  Effect.gen(function* () {
    const deadline = Date.now() + seconds * 1000
    while (!check()) {
      if (Date.now() > deadline) return assert.fail(`timed out waiting for ${what}`)
      yield* Effect.sleep(poll)
    }
  })

describe("gifts across two worker processes of one data directory", () => {
  it.live(
    "A sends and is killed, B (frozen meanwhile) takes the order over: one gift in the log, completed once",
    () =>
      Effect.gen(function* () {
        const url = yield* freshDatabase
        const sandbox = yield* SandboxBlockchain
        const toncenter = yield* startToncenterServer(sandbox)
        const fragment = yield* FragmentSimulator.scoped({ paymentSeen: paymentSeenOn(sandbox.emulator) })
        const dataDir = mkdtempSync(join(tmpdir(), "resale-fleet-gifts-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        // This process owns the world, so neither worker's death moves it.
        yield* ownSandboxWorld(dataDir, { toncenter: toncenter.url, fragment: fragment.url, cookies: fragment.cookies })
        const phrase = sandboxHotWalletPhrase()
        const [key] = yield* deriveKeys(phrase)
        const hot = walletContract("v5r1", key!.key.publicKey, -239).address.toString({ bounceable: false })
        yield* sandbox.fund(hot, (1_000n * 1_000_000_000n) as Nanoton)

        const env: Record<string, string> = {
          SANDBOX: "true",
          DATABASE_URL: url,
          PG_POOL_MAX: "3",
          DATA_DIR: dataDir,
          HOT_WALLET_MNEMONIC: Redacted.value(phrase),
          WORKER_CONCURRENCY: "2",
          WORKER_POLL_INTERVAL: "50 millis",
          ORDER_LEASE: "2 seconds",
          // A's own next look at its lost answer waits this long: time enough to kill it first.
          ORDER_RECONCILE_DELAY: "5 seconds",
          WORKER_PAYMENTS_INTERVAL: "500 millis",
          WORKER_NOTIFY_INTERVAL: "200 millis"
        }
        const main = yield* bundledEntry("worker")
        const logA = join(dataDir, "worker-a.log")
        const logB = join(dataDir, "worker-b.log")
        const gifts = join(dataDir, "sandbox-gifts.jsonl")

        // B first: started (its gift sender has read the log), then frozen before any order exists.
        const b = spawnWorker(main, env, logB)
        yield* Effect.addFinalizer(() => killed(b))
        yield* waitFor("worker B to start", () => read(logB).includes("worker started"), 90)
        // Frozen once its pool is connected: a connect under way when frozen times out when let go.
        yield* Effect.sleep("3 seconds")
        yield* signalled(b, "SIGSTOP")

        const sql = Context.get(yield* Layer.build(Layer.fresh(PgConnection.layerFromUrl(url, 2))), SqlClient)
        const shop = CoreServices.pipe(
          Layer.provideMerge(PgStore.layer),
          Layer.provideMerge(PgConnection.layerFromUrl(url, 2))
        )
        const gift = SANDBOX_GIFTS[0]!
        const order = yield* Effect.gen(function* () {
          const user = yield* fundedUser(10_000_000)
          return yield* (yield* OrderService).create(user.id, {
            kind: "gift",
            recipient: GIFT_MAGIC.lost,
            gift: { id: gift.id, stars: gift.stars }
          })
        }).pipe(Effect.provide(shop))

        // A sends; it dies the moment its send is in the shared log.
        const a = spawnWorker(main, env, logA)
        yield* Effect.addFinalizer(() => killed(a))
        yield* waitFor("worker A to send the gift", () => lines(gifts).length > 0, 90, "10 millis")
        yield* killed(a)
        yield* signalled(b, "SIGCONT")

        const status = Effect.map(
          sql<{ status: string }>`SELECT status FROM orders WHERE id = ${order.id}`,
          ([row]) => row?.status
        ).pipe(Effect.orDie)
        const deadline = Date.now() + 120_000
        while ((yield* status) !== "completed") {
          if (Date.now() > deadline)
            assert.fail(`order not completed (${yield* status}); worker B:\n${read(logB).slice(-3000)}`)
          yield* Effect.sleep("200 millis")
        }

        assert.strictEqual(lines(gifts).length, 1, `one gift sent:\n${read(gifts)}`)
        assert.notInclude(read(logA), `order ${order.id}: Delivered`, "A died before it could tell")
        assert.include(read(logB), `order ${order.id}: Delivered`, "B completed the order")
        const entries = yield* sql<{ cause: string }>`
          SELECT cause FROM ledger_entries WHERE cause_id = ${String(order.id)} AND cause IN ('order', 'refund')`.pipe(
          Effect.orDie
        )
        assert.deepStrictEqual(
          entries.map((e) => e.cause),
          ["order"],
          "charged once, never refunded"
        )
      }).pipe(Effect.scoped, Effect.provide(SandboxBlockchain.layerWith({ expiryMarginSeconds: 5 }))),
    300_000
  )
})
