import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import type { OrderId, UserId } from "../src/ids.ts"
import { Balances } from "../src/ledger/Balances.ts"
import { InsufficientBalance } from "../src/ledger/LedgerErrors.ts"
import type { Uzs } from "../src/money/Uzs.ts"
import { OrderService } from "../src/orders/OrderService.ts"
import { MAX_ATTEMPTS } from "../src/orders/OrderRules.ts"
import { PricingService } from "../src/pricing/PricingService.ts"
import { fund, signUp } from "../src/testing/fixtures.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"

const stars = (n: number, recipient = "durov") => ({ kind: "stars" as const, recipient, stars: n })
const balanceOf = (userId: UserId) => Effect.flatMap(Balances, (b) => b.balance(userId))
const causesOf = (userId: UserId) =>
  Effect.map(MemoryDb, (db) =>
    db
      .state()
      .ledger.filter((e) => e.userId === userId)
      .map((e) => `${e.cause}:${e.causeId}:${e.amount}`)
  )

describe("OrderService.quote", () => {
  it.effect("prices stars, premium and gifts at the current prices", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      assert.strictEqual((yield* orders.quote(stars(100))).priceUzs, 23_000)
      assert.strictEqual((yield* orders.quote({ kind: "premium", recipient: "@durov", months: 3 })).priceUzs, 170_000)
      assert.strictEqual((yield* orders.quote({ kind: "premium", recipient: "durov", months: 6 })).priceUzs, 230_000)
      assert.strictEqual((yield* orders.quote({ kind: "premium", recipient: "durov", months: 12 })).priceUzs, 410_000)
      const gift = yield* orders.quote({
        kind: "gift",
        recipient: "durov",
        gift: { id: "5170145012310081615", stars: 15 }
      })
      assert.strictEqual(gift.priceUzs, 15 * 230)
      assert.deepStrictEqual(gift.item, {
        kind: "gift",
        giftId: "5170145012310081615",
        giftStars: 15,
        comment: null,
        senderAccount: null,
        anonymous: false
      })
      yield* (yield* PricingService).set({
        starPriceUzs: 250,
        premium3MonthUzs: 1,
        premium6MonthUzs: 2,
        premium12MonthUzs: 3
      })
      assert.strictEqual((yield* orders.quote(stars(50))).priceUzs, 12_500)
      assert.strictEqual((yield* orders.quote({ kind: "premium", recipient: "durov", months: 12 })).priceUzs, 3)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("rejects amounts, durations, usernames, gifts and comments outside the rules", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const reasons = yield* Effect.all([
        Effect.flip(orders.quote(stars(49))),
        Effect.flip(orders.quote(stars(1_000_001))),
        Effect.flip(orders.quote(stars(60.5))),
        Effect.flip(orders.quote({ kind: "premium", recipient: "durov", months: 5 })),
        Effect.flip(orders.quote(stars(50, "a b"))),
        Effect.flip(orders.quote(stars(50, "abc"))),
        Effect.flip(orders.quote({ kind: "gift", recipient: "durov", gift: { id: "rose", stars: 10 } })),
        Effect.flip(orders.quote({ kind: "gift", recipient: "durov", gift: { id: "1", stars: 0 } })),
        Effect.flip(
          orders.quote({ kind: "gift", recipient: "durov", gift: { id: "1", stars: 5 }, comment: "x".repeat(256) })
        ),
        Effect.flip(
          orders.quote({ kind: "gift", recipient: "durov", gift: { id: "1", stars: 5 }, senderAccount: "../etc" })
        )
      ])
      assert.deepStrictEqual(
        reasons.map((e) => e.reason),
        [
          "StarsAmountTooSmall",
          "StarsAmountTooLarge",
          "StarsAmountTooSmall",
          "PremiumDuration",
          "Username",
          "Username",
          "Gift",
          "Gift",
          "Comment",
          "SenderAccount"
        ]
      )
      assert.strictEqual((yield* orders.quote(stars(1_000_000))).priceUzs, 230_000_000)
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("OrderService.create", () => {
  it.effect("debits the price and queues the order in one transaction", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 30_000)
      const order = yield* orders.create(alice.id, stars(100, "@Some_User"))
      assert.deepStrictEqual(
        [order.status, order.recipient, order.priceUzs, order.chargeSeq],
        ["queued", "Some_User", 23_000, 0]
      )
      assert.strictEqual(yield* balanceOf(alice.id), 7_000)
      assert.include(yield* causesOf(alice.id), `order:${order.id}:-23000`)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("place answers the order and the balance right after its own charge", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 50_000)
      const first = yield* orders.place(alice.id, stars(100))
      const second = yield* orders.place(alice.id, stars(50))
      assert.deepStrictEqual([first.balanceAfter, second.balanceAfter], [27_000, 15_500])
      assert.include(yield* causesOf(alice.id), `order:${second.order.id}:-11500`)
      assert.strictEqual(yield* balanceOf(alice.id), 15_500)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("an order after the operator changed the prices is charged at the new prices", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 100_000)
      assert.strictEqual((yield* orders.place(alice.id, stars(100))).order.priceUzs, 23_000)
      yield* (yield* PricingService).set({
        starPriceUzs: 250,
        premium3MonthUzs: 1,
        premium6MonthUzs: 2,
        premium12MonthUzs: 3
      })
      const raised = yield* orders.place(alice.id, stars(100))
      assert.deepStrictEqual([raised.order.priceUzs, raised.balanceAfter], [25_000, 52_000])
      assert.strictEqual(
        (yield* orders.create(alice.id, { kind: "premium", recipient: "durov", months: 3 })).priceUzs,
        1
      )
      // Short at the new prices, though not at the old ones: refused at the new ones.
      yield* (yield* PricingService).set({
        starPriceUzs: 60_000,
        premium3MonthUzs: 1,
        premium6MonthUzs: 2,
        premium12MonthUzs: 3
      })
      const short = yield* Effect.flip(orders.place(alice.id, stars(50)))
      assert.deepStrictEqual(
        short,
        new InsufficientBalance({ userId: alice.id, balance: 51_999 as Uzs, required: 3_000_000 as Uzs })
      )
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("short of balance: InsufficientBalance, and neither the order nor a charge remains", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 22_999)
      const error = yield* Effect.flip(orders.create(alice.id, stars(100)))
      assert.strictEqual(error._tag, "InsufficientBalance")
      assert.strictEqual(yield* balanceOf(alice.id), 22_999)
      assert.strictEqual((yield* orders.listOwn(alice.id, { offset: 0, limit: 20 })).total, 0)
      assert.strictEqual((yield* MemoryDb).state().orders.size, 0)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("concurrent orders never overdraw", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 23_000 * 3)
      const results = yield* Effect.all(
        Array.from({ length: 8 }, () => Effect.result(orders.create(alice.id, stars(100)))),
        {
          concurrency: "unbounded"
        }
      )
      assert.strictEqual(results.filter((r) => r._tag === "Success").length, 3)
      assert.strictEqual(yield* balanceOf(alice.id), 0)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("lists the owner's orders newest first with offset/limit and total; others get NotFound", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      const bob = yield* signUp()
      yield* fund(alice, 23_000 * 25)
      yield* fund(bob, 23_000)
      const created = []
      for (let i = 0; i < 25; i++) created.push(yield* orders.create(alice.id, stars(100)))
      const bobs = yield* orders.create(bob.id, stars(100))
      const first = yield* orders.listOwn(alice.id, { offset: 0, limit: 20 })
      const second = yield* orders.listOwn(alice.id, { offset: 20, limit: 20 })
      assert.deepStrictEqual([first.total, first.items.length, second.items.length], [25, 20, 5])
      assert.strictEqual(first.items[0]?.id, created[24]?.id)
      assert.strictEqual(second.items[4]?.id, created[0]?.id)
      assert.notInclude(
        first.items.concat(second.items).map((o) => o.id),
        bobs.id
      )
      assert.strictEqual(
        (yield* Effect.flip(orders.find({ kind: "user", userId: alice.id }, bobs.id)))._tag,
        "OrderNotFound"
      )
      assert.strictEqual((yield* orders.find({ kind: "operator" }, bobs.id)).id, bobs.id)
      assert.strictEqual((yield* orders.list({ offset: 0, limit: 100, userId: bob.id })).total, 1)
      assert.strictEqual((yield* orders.list({ offset: 0, limit: 100, kind: "premium" })).total, 0)
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("OrderService worker transitions", () => {
  it.effect("claimDue takes up to its limit of due orders at once, oldest first, each once", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 100_000)
      const placed = yield* Effect.forEach([1, 2, 3], () => orders.create(alice.id, stars(100)))
      const first = yield* orders.claimDue(2)
      assert.deepStrictEqual(
        first.map((o) => [o.id, o.status]),
        placed.slice(0, 2).map((o) => [o.id, "processing"])
      )
      assert.deepStrictEqual(
        (yield* orders.claimDue(5)).map((o) => o.id),
        [placed[2]!.id]
      )
      assert.deepStrictEqual(yield* orders.claimDue(5), [])
      assert.isTrue(Option.isNone(yield* orders.claimNext))
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("claim -> processing, then complete with tx id; no order is claimed twice", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 50_000)
      const o1 = yield* orders.create(alice.id, stars(100))
      const claimed = Option.getOrThrow(yield* orders.claimNext)
      assert.deepStrictEqual([claimed.id, claimed.status], [o1.id, "processing"])
      assert.isTrue(Option.isNone(yield* orders.claimNext))
      yield* orders.setReference(o1.id, "Ref#abc")
      const done = yield* orders.complete(o1.id, { txId: "tx-hash-1" })
      assert.deepStrictEqual([done.status, done.txId, done.fragmentRef], ["completed", "tx-hash-1", "Ref#abc"])
      const again = yield* Effect.flip(orders.complete(o1.id, { txId: "tx-hash-2" }))
      assert.deepStrictEqual(
        [again._tag, again._tag === "OrderTransitionInvalid" && again.from],
        ["OrderTransitionInvalid", "completed"]
      )
      assert.strictEqual(yield* balanceOf(alice.id), 27_000)
      const kinds = [...(yield* MemoryDb).state().outbox.values()].map((e) => e.kind)
      assert.include(kinds, "order.completed")
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("a permanent failure refunds exactly once", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 23_000)
      const order = yield* orders.create(alice.id, stars(100))
      yield* orders.claimNext
      const failed = yield* orders.fail(order.id, "RecipientNotFound")
      assert.deepStrictEqual([failed.status, failed.lastError], ["failed", "RecipientNotFound"])
      assert.strictEqual(yield* balanceOf(alice.id), 23_000)
      const twice = yield* Effect.flip(orders.fail(order.id, "again"))
      assert.deepStrictEqual(
        [twice._tag, twice._tag === "OrderTransitionInvalid" && twice.from],
        ["OrderTransitionInvalid", "failed"]
      )
      assert.strictEqual(yield* balanceOf(alice.id), 23_000)
      assert.strictEqual((yield* causesOf(alice.id)).filter((c) => c.startsWith("refund:")).length, 1)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("a transient failure requeues with backoff; after MAX_ATTEMPTS it fails and refunds", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 23_000)
      const order = yield* orders.create(alice.id, stars(100))
      yield* orders.claimNext
      const deferred = yield* orders.defer(order.id, "Timeout")
      assert.deepStrictEqual([deferred.status, deferred.attempts, deferred.lastError], ["queued", 1, "Timeout"])
      assert.strictEqual(deferred.nextAttemptAt?.getTime(), 30_000)
      assert.isTrue(Option.isNone(yield* orders.claimNext))
      yield* TestClock.adjust("30 seconds")
      assert.strictEqual(Option.getOrThrow(yield* orders.claimNext).id, order.id)
      const deferredTwice = yield* orders.defer(order.id, "Timeout")
      assert.strictEqual(deferredTwice.nextAttemptAt!.getTime() - 30_000, 60_000)
      // deferring a queued (unclaimed) order is not a worker transition
      assert.strictEqual((yield* Effect.flip(orders.defer(order.id, "x")))._tag, "OrderTransitionInvalid")
      for (let attempt = 3; attempt <= MAX_ATTEMPTS; attempt++) {
        yield* TestClock.adjust("1 hour")
        assert.strictEqual(Option.getOrThrow(yield* orders.claimNext).id, order.id)
        const after = yield* orders.defer(order.id, "Timeout")
        assert.strictEqual(after.status, attempt < MAX_ATTEMPTS ? "queued" : "failed")
      }
      assert.strictEqual(yield* balanceOf(alice.id), 23_000)
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("OrderService operator transitions", () => {
  it.effect("retry: failed -> queued charging again; a second failure refunds that charge once", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 23_000)
      const order = yield* orders.create(alice.id, stars(100))
      assert.strictEqual((yield* Effect.flip(orders.retry(order.id)))._tag, "OrderTransitionInvalid")
      yield* orders.fail(order.id, "boom")
      const retried = yield* orders.retry(order.id)
      assert.deepStrictEqual(
        [retried.status, retried.chargeSeq, retried.attempts, retried.lastError],
        ["queued", 1, 0, null]
      )
      assert.strictEqual(yield* balanceOf(alice.id), 0)
      yield* orders.fail(order.id, "boom again")
      assert.strictEqual(yield* balanceOf(alice.id), 23_000)
      yield* orders.retry(order.id)
      const causes = yield* causesOf(alice.id)
      assert.match(causes[0]!, /^adjust:fund-\d+:23000$/)
      assert.deepStrictEqual(causes.slice(1), [
        `order:${order.id}:-23000`,
        `refund:${order.id}:23000`,
        `order:${order.id}:retry:1:-23000`,
        `refund:${order.id}:1:23000`,
        `order:${order.id}:retry:2:-23000`
      ])
      assert.strictEqual(yield* balanceOf(alice.id), 0)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("retry without the balance to pay again: InsufficientBalance, the order stays failed", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const balances = yield* Balances
      const alice = yield* signUp()
      yield* fund(alice, 23_000)
      const order = yield* orders.create(alice.id, stars(100))
      yield* orders.fail(order.id, "boom")
      yield* balances.adjust({ userId: alice.id, amount: -1, reason: "fee", key: "fee-1" })
      assert.strictEqual((yield* Effect.flip(orders.retry(order.id)))._tag, "InsufficientBalance")
      const still = yield* orders.find({ kind: "operator" }, order.id)
      assert.deepStrictEqual([still.status, still.chargeSeq], ["failed", 0])
      assert.strictEqual(yield* balanceOf(alice.id), 22_999)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("mark-done: queued or processing keep their charge; failed is charged again; completed is final", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 69_000)
      const queued = yield* orders.create(alice.id, stars(100))
      const processing = yield* orders.create(alice.id, stars(100))
      const failing = yield* orders.create(alice.id, stars(100))
      yield* orders.claimNext
      yield* orders.claimNext
      assert.strictEqual((yield* orders.find({ kind: "operator" }, processing.id)).status, "processing")
      yield* orders.fail(failing.id, "boom")
      assert.strictEqual(yield* balanceOf(alice.id), 23_000)

      const a = yield* orders.markDone(queued.id, "manual-1")
      const b = yield* orders.markDone(processing.id)
      assert.deepStrictEqual([a.status, a.txId, b.status, b.txId], ["completed", "manual-1", "completed", null])
      assert.strictEqual(yield* balanceOf(alice.id), 23_000)

      const c = yield* orders.markDone(failing.id, "delivered by hand")
      assert.deepStrictEqual([c.status, c.chargeSeq], ["completed", 1])
      assert.strictEqual(yield* balanceOf(alice.id), 0)
      assert.include(yield* causesOf(alice.id), `order:${failing.id}:retry:1:-23000`)

      const final = yield* Effect.flip(orders.markDone(a.id, "again"))
      assert.deepStrictEqual(
        [final._tag, final._tag === "OrderTransitionInvalid" && final.from],
        ["OrderTransitionInvalid", "completed"]
      )
      assert.strictEqual((yield* Effect.flip(orders.markDone(12345 as OrderId)))._tag, "OrderNotFound")
      assert.strictEqual((yield* Effect.flip(orders.fail(a.id, "late")))._tag, "OrderTransitionInvalid")
      assert.strictEqual((yield* Effect.flip(orders.retry(a.id)))._tag, "OrderTransitionInvalid")
    }).pipe(Effect.provide(layerMemory))
  )
})
