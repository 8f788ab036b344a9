/**
 * The sandbox's test recipients (docs/sandbox.md, "Test recipients"), each through the worker on real
 * parts (PostgreSQL, the TON VM, the Fragment simulator behind the real adapter, the gift simulator):
 * every one ends the account order where the table says, and money moves once. Each attempt is run
 * by hand (`runOnce`), its backoff skipped (`dueNow`), so nothing waits on the worker's schedule.
 */
import { assert, layer } from "@effect/vitest"
import type { OrderId } from "@resale/core/ids.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { GiftSender } from "@resale/core/ports/GiftSender.ts"
import { Orders } from "@resale/core/ports/Orders.ts"
import { FleetStatus } from "@resale/core/ports/FleetStatus.ts"
import { FleetBeats } from "@resale/core/status/FleetBeats.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { SandboxBlockchain } from "@resale/ton"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"
import { GIFT_MAGIC, makeSimulatedGiftSender, SANDBOX_GIFTS } from "@resale/telegram/SimulatedGiftSender.ts"
import { Fulfilment } from "@resale/worker/fulfilment/Fulfilment.ts"
import { WorkerConfig } from "@resale/worker/WorkerConfig.ts"
import { WorkerServices } from "@resale/worker/WorkerLive.ts"
import { SandboxFaucet } from "@resale/ton/SandboxFaucet.ts"
import { Duration, Effect, Layer } from "effect"
import { fundedUser, orderEntries, SilentNotifier } from "./support/WorkerHarness.ts"

/** The sandbox world as `npm start` wires it: magic on, the chain asking Fragment which payments to lose. */
const MagicWorld = Layer.unwrap(
  Effect.gen(function* () {
    const chain = yield* SandboxBlockchain
    return Layer.effectDiscard(
      Effect.gen(function* () {
        const { control } = yield* FragmentSandbox
        chain.dropPayments(control.dropsPayment)
      })
    ).pipe(
      Layer.provideMerge(
        FragmentSandbox.layer(
          { paymentSeen: paymentSeenOn(chain.emulator), magic: { lateMs: 3000, timeoutMs: 4000 } },
          // A paid invoice Fragment never calls done holds its cookie session: briefly here, 3 minutes by default.
          { timeout: "2 seconds", sessionHold: "2 seconds", sessionWait: "4 seconds" }
        )
      )
    )
    // Short-lived messages, so a lost payment is known unpaid within seconds.
  })
).pipe(Layer.provideMerge(SandboxBlockchain.layerWith({ ttlSeconds: 4, expiryMarginSeconds: 1 })))

const MagicGifts = Layer.effect(
  GiftSender,
  Effect.map(makeSimulatedGiftSender({ accounts: ["user"], magic: true }), (s) => s.service)
)

const Stack = WorkerServices.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      MagicGifts,
      SilentNotifier,
      WorkerConfig.layerTest({
        deliveryWait: Duration.seconds(1),
        confirmWait: Duration.seconds(20),
        reconcileDelay: Duration.millis(100),
        unknownRetryMax: Duration.millis(400),
        attentionAfter: Duration.zero,
        attentionAttempts: 3
      })
    )
  ),
  Layer.provideMerge(SandboxFaucet.layerLocal),
  Layer.provideMerge(Layer.mergeAll(MagicWorld, IsolatedPostgres.layerStore))
)

const reload = (id: OrderId) => OrderService.use((o) => o.find({ kind: "operator" }, id)).pipe(Effect.orDie)

/** The next attempt of the order now: its backoff is skipped. */
const dueNow = (id: OrderId) =>
  Orders.use((orders) => orders.transition(id, ["queued"], "queued", { nextAttemptAt: null }, new Date())).pipe(
    Effect.orDie
  )

/** Attempts the order until it leaves the queue for good (or `max` attempts), skipping each backoff. */
const runUntilSettled = (id: OrderId, max: number, pauseMs = 0) =>
  Effect.gen(function* () {
    const fulfilment = yield* Fulfilment
    const seen: Array<string> = []
    for (let i = 0; i < max; i++) {
      yield* fulfilment.runOnce
      const order = yield* reload(id)
      seen.push(order.status)
      if (order.status !== "queued") return { order, seen }
      if (pauseMs > 0) yield* Effect.promise(() => new Promise((r) => setTimeout(r, pauseMs)))
      yield* dueNow(id)
    }
    return { order: yield* reload(id), seen }
  })

const kinds = (id: OrderId) => Effect.map(orderEntries(id), (rows) => rows.map((r) => `${r.cause}:${r.amount_uzs}`))

const stars = (recipient: string) => (userId: number) =>
  OrderService.use((o) => o.create(userId as never, { kind: "stars", recipient, stars: 50 }))

layer(Stack, { timeout: "170 seconds", excludeTestServices: true })("the sandbox's test recipients", (it) => {
  it.effect(
    "sandbox_not_found: Fragment finds nobody, the order fails and is refunded once",
    () =>
      Effect.gen(function* () {
        const user = yield* fundedUser(100_000)
        const order = yield* stars("sandbox_not_found")(user.id)
        const { order: after } = yield* runUntilSettled(order.id, 2)
        assert.strictEqual(after.status, "failed")
        assert.deepStrictEqual(yield* kinds(order.id), [`order:${-order.priceUzs}`, `refund:${order.priceUzs}`])
        assert.strictEqual(
          (yield* FragmentSandbox).control.invoices().filter((i) => i.username === "sandbox_not_found").length,
          0
        )
      }),
    { timeout: 120_000 }
  )

  it.effect(
    "sandbox_timeout: Fragment answers too late, nothing is paid, retried with backoff and refunded once at the limit",
    () =>
      Effect.gen(function* () {
        const user = yield* fundedUser(100_000)
        const order = yield* stars("sandbox_timeout")(user.id)
        const first = yield* runUntilSettled(order.id, 1)
        assert.strictEqual(first.order.status, "queued")
        assert.strictEqual(first.order.attempts, 1)
        assert.match(first.order.lastError ?? "", /time|answer/i)
        assert.deepStrictEqual(yield* kinds(order.id), [`order:${-order.priceUzs}`])
        const { order: after } = yield* runUntilSettled(order.id, 10)
        assert.strictEqual(after.status, "failed")
        assert.deepStrictEqual(yield* kinds(order.id), [`order:${-order.priceUzs}`, `refund:${order.priceUzs}`])
      }),
    { timeout: 120_000 }
  )

  it.effect(
    "sandbox_late: paid, Fragment confirms too late; the next check settles the order on its own evidence",
    () =>
      Effect.gen(function* () {
        const user = yield* fundedUser(100_000)
        const order = yield* stars("sandbox_late")(user.id)
        const { order: after, seen } = yield* runUntilSettled(order.id, 30, 300)
        assert.strictEqual(seen[0], "queued", "the first attempt pays and leaves the outcome open")
        assert.strictEqual(after.status, "completed")
        // Paid on chain and the signed message accepted: completed as paid, delivery unconfirmed by Fragment.
        assert.strictEqual(after.delivery, "paid_unconfirmed")
        assert.deepStrictEqual(yield* kinds(order.id), [`order:${-order.priceUzs}`])
      }),
    { timeout: 120_000 }
  )

  it.effect(
    "sandbox_unknown: paid, Fragment never confirms: the order waits for an operator, not refunded",
    () =>
      Effect.gen(function* () {
        const user = yield* fundedUser(100_000)
        const order = yield* stars("sandbox_unknown")(user.id)
        const { order: after } = yield* runUntilSettled(order.id, 8)
        assert.strictEqual(after.status, "needs_attention")
        assert.isNotNull(after.evidence?.txHash ?? null, "the payment on chain is part of the evidence")
        assert.deepStrictEqual(yield* kinds(order.id), [`order:${-order.priceUzs}`])
        // The operator settles it: one refund.
        yield* OrderService.use((o) => o.refund(order.id, "sandbox test"))
        yield* OrderService.use((o) => o.refund(order.id, "sandbox test")).pipe(Effect.ignore)
        assert.deepStrictEqual(yield* kinds(order.id), [`order:${-order.priceUzs}`, `refund:${order.priceUzs}`])
      }),
    { timeout: 120_000 }
  )

  it.effect(
    "sandbox_lost_payment: the chain loses the first payment, it expires unpaid, the retry lands and delivers",
    () =>
      Effect.gen(function* () {
        const user = yield* fundedUser(100_000)
        const order = yield* stars("sandbox_lost_payment")(user.id)
        const { order: after, seen } = yield* runUntilSettled(order.id, 8, 500)
        assert.strictEqual(seen[0], "queued")
        assert.strictEqual(after.status, "completed")
        assert.strictEqual(after.attempts, 1, "one attempt lost, nothing paid for it")
        const invoices = (yield* FragmentSandbox).control
          .invoices()
          .filter((i) => i.username === "sandbox_lost_payment")
        assert.deepStrictEqual(
          invoices.map((i) => i.status === "done"),
          [false, true]
        )
        assert.deepStrictEqual(yield* kinds(order.id), [`order:${-order.priceUzs}`])
      }),
    { timeout: 120_000 }
  )

  it.effect(
    "sandbox_gift_refused and sandbox_gift_lost: refused is refunded once; a lost answer is found sent and completes",
    () =>
      Effect.gen(function* () {
        const user = yield* fundedUser(100_000)
        const gift = SANDBOX_GIFTS[0]!
        const create = (recipient: string) =>
          OrderService.use((o) =>
            o.create(user.id, { kind: "gift", recipient, gift: { id: gift.id, stars: gift.stars } })
          )
        const refused = yield* create(GIFT_MAGIC.refused)
        const lost = yield* create(GIFT_MAGIC.lost)
        const a = yield* runUntilSettled(refused.id, 2)
        assert.strictEqual(a.order.status, "failed")
        assert.deepStrictEqual(yield* kinds(refused.id), [`order:${-refused.priceUzs}`, `refund:${refused.priceUzs}`])
        const b = yield* runUntilSettled(lost.id, 4)
        assert.strictEqual(b.seen[0], "queued", "the lost answer leaves the outcome open first")
        assert.strictEqual(b.order.status, "completed")
        assert.deepStrictEqual(yield* kinds(lost.id), [`order:${-lost.priceUzs}`])
      }),
    { timeout: 120_000 }
  )

  it.effect(
    "a worker's beat carries the hot wallet as read from the chain, once a minute, for every server's status panel",
    () =>
      Effect.gen(function* () {
        const beats = yield* FleetBeats
        const fleet = yield* FleetStatus
        const started = new Date(Date.now() - 5000)
        yield* beats.beat("magic:1", started, new Date(Date.now() - 1000))
        const first = (yield* fleet.workers).find((w) => w.worker === "magic:1")
        assert.isDefined(first)
        assert.isNotNull(first!.hotWallet, "the beat carries a wallet read")
        const report = first!.hotWallet!.report
        // Funded once the faucet paid it (its first purchase); before, where to send TON.
        if (report.funded) assert.isTrue(report.balance > 0n && report.syncTime !== undefined)
        else assert.isAbove(report.fundAt.length, 0)
        // within the minute: the beat moves on, the wallet read stays the one made
        yield* beats.beat("magic:1", started, null)
        const second = (yield* fleet.workers).find((w) => w.worker === "magic:1")!
        assert.strictEqual(second.hotWallet?.readAt.getTime(), first!.hotWallet!.readAt.getTime())
        assert.strictEqual(second.beatAt.getTime(), started.getTime(), "no loop round yet: the start counts")
      }),
    { timeout: 60_000 }
  )
})
