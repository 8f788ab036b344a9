import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import type { OrderId, UserId } from "../src/ids.ts"
import { Balances } from "../src/ledger/Balances.ts"
import type { Order } from "../src/orders/Order.ts"
import { OrderService } from "../src/orders/OrderService.ts"
import { OrderWork } from "../src/orders/OrderWork.ts"
import { OrderWorkSettings, unknownRetryDelayMs } from "../src/orders/OrderWorkSettings.ts"
import { fund, signUp } from "../src/testing/fixtures.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"

const balanceOf = (userId: UserId) => Effect.flatMap(Balances, (b) => b.balance(userId))
const attentionEvents = Effect.map(MemoryDb, (db) =>
  [...db.state().outbox.values()].filter((e) => e.kind === "order.attention")
)
const refundsOf = (orderId: OrderId) =>
  Effect.map(MemoryDb, (db) =>
    db.state().ledger.filter((e) => e.cause === "refund" && e.causeId.split(":")[0] === `${orderId}`)
  )

const MINUTE = 60_000

/** A charged order, claimed by a worker (`processing`). */
const claimedOrder = Effect.gen(function* () {
  const user = yield* signUp()
  yield* fund(user, 100_000)
  const orders = yield* OrderService
  const order = yield* orders.create(user.id, { kind: "stars", recipient: "durov", stars: 100 })
  const claimed = yield* orders.claimNext
  assert.strictEqual(Option.getOrThrow(claimed).id, order.id)
  return order
})

/** Waits (TestClock) until the order is due, then claims it again. */
const claimWhenDue = (order: Order) =>
  Effect.gen(function* () {
    const now = yield* Effect.clockWith((c) => c.currentTimeMillis)
    yield* TestClock.adjust(Duration.millis(Math.max(0, order.nextAttemptAt!.getTime() - now)))
    assert.strictEqual(Option.getOrThrow(yield* (yield* OrderService).claimNext).id, order.id)
  })

/** Unknown checks until the order leaves the retries; returns every state it went through. */
const checkUntilHeld = (order: Order) =>
  Effect.gen(function* () {
    const work = yield* OrderWork
    const seen: Array<Order> = []
    for (let i = 1; i <= 50; i++) {
      const after = yield* work.unknown(order.id, {
        error: `Ref#ABC paid, marketplace says pending (${i})`,
        ref: "ABC",
        txHash: "tx-1",
        chainState: "unknown"
      })
      seen.push(after)
      if (after.status !== "queued") return seen
      yield* claimWhenDue(after)
    }
    return seen
  })

describe("unknown outcomes", () => {
  it("the delay doubles from the base up to the cap, and jitter takes at most half of it", () => {
    const s = { unknownRetryBase: Duration.seconds(30), unknownRetryMax: Duration.minutes(10) }
    assert.deepStrictEqual(
      [1, 2, 3, 6, 7, 40].map((n) => unknownRetryDelayMs(s, n, 0.999999)),
      [30_000, 60_000, 120_000, 600_000, 600_000, 600_000]
    )
    assert.deepStrictEqual(
      [1, 2, 6].map((n) => unknownRetryDelayMs(s, n, 0)),
      [15_000, 30_000, 300_000]
    )
  })

  it.effect(
    "are checked again later and later; past both limits the order waits for an operator, who is told once",
    () =>
      Effect.gen(function* () {
        const order = yield* claimedOrder
        const start = yield* Effect.clockWith((c) => c.currentTimeMillis)
        const seen = yield* checkUntilHeld(order)
        const held = seen.at(-1)!
        assert.strictEqual(held.status, "needs_attention")
        // Not before 8 checks and 30 minutes (the defaults), and the check before was short of one of them.
        assert.isAtLeast(held.unknownAttempts, 8)
        assert.isAtLeast(held.updatedAt.getTime() - start, 30 * MINUTE)
        const previous = seen.at(-2)!
        assert.isTrue(previous.unknownAttempts < 8 || previous.updatedAt.getTime() - start < 30 * MINUTE)
        // Each delay is within [half, whole] of its doubling step.
        for (const [i, step] of seen.slice(0, -1).entries()) {
          const full = Math.min(10 * MINUTE, 30_000 * 2 ** i)
          const delay = step.nextAttemptAt!.getTime() - step.updatedAt.getTime()
          assert.isTrue(delay >= full / 2 && delay <= full, `check ${i + 1}: ${delay} ms of ${full}`)
        }
        assert.deepStrictEqual(held.evidence && { ...held.evidence, answers: held.evidence.answers.length }, {
          txHash: "tx-1",
          ref: "ABC",
          chainState: "unknown",
          answers: 5
        })
        assert.strictEqual(held.fragmentRef, "ABC")
        assert.isNull(held.nextAttemptAt)
        // No more retries; the charge is kept; the operators got one message.
        yield* TestClock.adjust("1 day")
        assert.isTrue(Option.isNone(yield* (yield* OrderService).claimNext))
        assert.strictEqual(yield* balanceOf(order.userId), 100_000 - order.priceUzs)
        const events = yield* attentionEvents
        assert.deepStrictEqual(
          events.map((e) => [e.userId, e.payload["orderId"], e.payload["txHash"]]),
          [[null, order.id, "tx-1"]]
        )
      }).pipe(Effect.provide(layerMemory))
  )

  it.effect("many fast checks alone do not flag an order before the time limit", () =>
    Effect.gen(function* () {
      const order = yield* claimedOrder
      const work = yield* OrderWork
      let last: Order = order
      for (let i = 0; i < 12; i++) {
        last = yield* work.unknown(order.id, { error: "still unknown" })
        yield* claimWhenDue(last)
      }
      assert.deepStrictEqual([last.status, last.unknownAttempts], ["queued", 12])
      yield* TestClock.adjust("2 minutes")
      assert.strictEqual((yield* work.unknown(order.id, { error: "still unknown" })).status, "needs_attention")
    }).pipe(
      Effect.provide(
        layerMemory.pipe(
          Layer.provide(
            Layer.succeed(OrderWorkSettings)({
              lease: Duration.seconds(60),
              unknownRetryBase: Duration.millis(100),
              unknownRetryMax: Duration.seconds(1),
              attentionAfter: Duration.minutes(1),
              attentionAttempts: 3,
              retryBase: Duration.seconds(30),
              maxAttempts: 8,
              busyRetry: Duration.seconds(1)
            })
          )
        )
      )
    )
  )
})

describe("operators settle an order that needs attention", () => {
  const heldOrder = Effect.gen(function* () {
    const order = yield* claimedOrder
    yield* checkUntilHeld(order)
    return order
  })

  it.effect("refund: exactly once, one ledger entry; a second refund is a conflict", () =>
    Effect.gen(function* () {
      const order = yield* heldOrder
      const orders = yield* OrderService
      const refunded = yield* orders.refund(order.id, "Fragment support says not delivered")
      assert.strictEqual(refunded.status, "failed")
      assert.strictEqual(yield* balanceOf(order.userId), 100_000)
      const again = yield* Effect.flip(orders.refund(order.id, "again"))
      assert.deepStrictEqual(
        [again._tag, again._tag === "OrderTransitionInvalid" && again.from],
        ["OrderTransitionInvalid", "failed"]
      )
      assert.strictEqual((yield* refundsOf(order.id)).length, 1)
      assert.strictEqual(yield* balanceOf(order.userId), 100_000)
      // A failed order cannot be checked again either (an operator's retry charges anew instead).
      assert.strictEqual((yield* Effect.flip(orders.recheck(order.id)))._tag, "OrderTransitionInvalid")
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("check again: queued at once with a fresh run of checks, the evidence kept", () =>
    Effect.gen(function* () {
      const order = yield* heldOrder
      const orders = yield* OrderService
      const requeued = yield* orders.recheck(order.id)
      assert.deepStrictEqual(
        [requeued.status, requeued.unknownAttempts, requeued.unknownSince, requeued.nextAttemptAt],
        ["queued", 0, null, null]
      )
      assert.strictEqual(requeued.evidence?.txHash, "tx-1")
      assert.strictEqual(Option.getOrThrow(yield* orders.claimNext).id, order.id)
      assert.strictEqual((yield* Effect.flip(orders.recheck(order.id)))._tag, "OrderTransitionInvalid")
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("complete with a reference: the charge is kept, the refund refused afterwards", () =>
    Effect.gen(function* () {
      const order = yield* heldOrder
      const orders = yield* OrderService
      const done = yield* orders.markDone(order.id, "fragment Ref#ABC delivered")
      assert.deepStrictEqual([done.status, done.txId], ["completed", "fragment Ref#ABC delivered"])
      assert.strictEqual((yield* Effect.flip(orders.refund(order.id, "late")))._tag, "OrderTransitionInvalid")
      assert.strictEqual(yield* balanceOf(order.userId), 100_000 - order.priceUzs)
      assert.strictEqual((yield* refundsOf(order.id)).length, 0)
    }).pipe(Effect.provide(layerMemory))
  )
})
