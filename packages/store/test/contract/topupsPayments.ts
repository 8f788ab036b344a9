import { assert } from "@effect/vitest"
import {
  DEFAULT_TOPUP_SETTINGS,
  type PaymentId,
  quarantineSince,
  type TopupId,
  type UserId,
  type Uzs
} from "@resale/core"
import { matchesPayment } from "@resale/core/topups/PayableAmount.ts"
import { IncomingPayments, Topups, Transactor } from "@resale/core/ports"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { at, minutes, newUser, type StoreTest, t0 } from "./support.ts"

const pending = (userId: UserId, requested: number, now = t0) =>
  Topups.use((topups) =>
    topups.insertPending({
      userId,
      requestedUzs: requested as Uzs,
      expiresAt: at(minutes(15) + now.getTime() - t0.getTime()),
      quarantineSince: quarantineSince(DEFAULT_TOPUP_SETTINGS, now),
      now
    })
  )

export const topupsContract = (test: StoreTest) => {
  test(
    "insertPending picks the smallest free offset among pending top-ups, across requested amounts",
    Effect.gen(function* () {
      const user = yield* newUser(1)
      const a = yield* pending(user.id, 10_000)
      const b = yield* pending(user.id, 10_000)
      const c = yield* pending(user.id, 9_999)
      assert.deepStrictEqual([a.payableUzs, b.payableUzs, c.payableUzs], [10_000, 10_001, 9_999])
      // Ranges overlap: 9_999, 10_000 and 10_001 are all held, so the next 9_999 request pays 10_002.
      const d = yield* pending(user.id, 9_999)
      assert.strictEqual(d.payableUzs, 10_002)
      assert.strictEqual(a.status, "pending")
      assert.strictEqual(a.method, "card")
      assert.strictEqual(a.requestedUzs, 10_000)
      assert.deepStrictEqual(a.expiresAt, at(minutes(15)))
      // A top-up that leaves `pending` keeps its payable amount quarantined (a late bank payment must
      // not credit another user's top-up): another user's request moves on to a free offset, while
      // its owner gets it back (a late payment for it credits the same account).
      yield* (yield* Topups).transition(a.id, ["pending"], "cancelled", {}, at(1))
      const other = yield* newUser(11)
      assert.strictEqual((yield* pending(other.id, 10_000)).payableUzs, 10_003)
      assert.strictEqual((yield* pending(user.id, 10_000)).payableUzs, 10_000)
    })
  )

  test(
    "insertPending fails TopupPayableExhausted when all 1,000 offsets are pending",
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const user = yield* newUser(2)
      yield* sql`
      INSERT INTO topups (user_id, method, requested_uzs, payable_uzs, status, expires_at, created_at, updated_at)
      SELECT ${user.id}, 'card', 50000 + o, 50000 + o, 'pending', ${at(minutes(15))}, ${t0}, ${t0}
      FROM generate_series(0, 999) AS o`
      const error = yield* Effect.flip(pending(user.id, 50_000))
      assert.strictEqual(error._tag, "TopupPayableExhausted")
      assert.strictEqual((yield* pending(user.id, 49_999)).payableUzs, 49_999)
    })
  )

  test(
    "insertReview stores the receipt; find and list (filters, newest first, total)",
    Effect.gen(function* () {
      const topups = yield* Topups
      const ann = yield* newUser(3)
      const ben = yield* newUser(4)
      const review = yield* topups.insertReview({
        userId: ann.id,
        requestedUzs: 25_000 as Uzs,
        receipt: { key: "receipts/3/abc", contentType: "image/png", size: 1234, sha256: "ab".repeat(32) },
        now: t0
      })
      assert.strictEqual(review.status, "review")
      assert.strictEqual(review.payableUzs, 25_000)
      assert.isNull(review.expiresAt)
      assert.deepStrictEqual(review.receipt, {
        key: "receipts/3/abc",
        contentType: "image/png",
        size: 1234,
        sha256: "ab".repeat(32)
      })
      const card = yield* pending(ann.id, 5_000)
      yield* pending(ben.id, 7_000)
      assert.deepStrictEqual(Option.getOrThrow(yield* topups.find(review.id)), review)
      assert.isTrue(Option.isNone(yield* topups.find(999 as TopupId)))
      const own = yield* topups.list({ userId: ann.id, offset: 0, limit: 10 })
      assert.deepStrictEqual(
        own.items.map((t) => t.id),
        [card.id, review.id]
      )
      const reviews = yield* topups.list({ status: ["review"], offset: 0, limit: 10 })
      assert.strictEqual(reviews.total, 1)
      assert.strictEqual((yield* topups.list({ offset: 2, limit: 1 })).total, 3)
    })
  )

  test(
    "transition is conditional on the current status and applies only the patch's fields",
    Effect.gen(function* () {
      const topups = yield* Topups
      const user = yield* newUser(5)
      const t = yield* pending(user.id, 3_000)
      const paid = yield* topups.transition(
        t.id,
        ["pending", "review"],
        "paid",
        {
          creditedUzs: 3_000 as Uzs,
          confirmedBy: "operator",
          adminNote: "checked"
        },
        at(5)
      )
      assert.strictEqual(paid.status, "paid")
      assert.strictEqual(paid.creditedUzs, 3_000)
      assert.strictEqual(paid.adminNote, "checked")
      assert.deepStrictEqual(paid.updatedAt, at(5))
      const again = yield* Effect.flip(topups.transition(t.id, ["pending"], "cancelled", {}, at(6)))
      assert.strictEqual(again._tag, "TopupTransitionInvalid")
      if (again._tag === "TopupTransitionInvalid") assert.strictEqual(again.from, "paid")
      const missing = yield* Effect.flip(topups.transition(999 as TopupId, ["pending"], "cancelled", {}, at(6)))
      assert.strictEqual(missing._tag, "TopupNotFound")
      const unchanged = Option.getOrThrow(yield* topups.find(t.id))
      assert.strictEqual(unchanged.adminNote, "checked")
      assert.strictEqual(unchanged.confirmedBy, "operator")
    })
  )

  test(
    "a paid top-up must say what was credited (the database refuses it otherwise)",
    Effect.gen(function* () {
      const topups = yield* Topups
      const user = yield* newUser(6)
      const t = yield* pending(user.id, 3_000)
      const exit = yield* Effect.exit(topups.transition(t.id, ["pending"], "paid", {}, at(1)))
      assert.strictEqual(exit._tag, "Failure")
      assert.strictEqual(Option.getOrThrow(yield* topups.find(t.id)).status, "pending")
    })
  )

  test(
    "findLivePendingByPayable sees only live card top-ups; expireDue expires each due one once",
    Effect.gen(function* () {
      const topups = yield* Topups
      const user = yield* newUser(7)
      const early = yield* pending(user.id, 4_000)
      const late = yield* pending(user.id, 4_000, at(minutes(10)))
      assert.deepStrictEqual(
        (yield* topups.findLivePendingByPayable(4_000 as Uzs, at(1))).map((t) => t.id),
        [early.id]
      )
      assert.deepStrictEqual(
        (yield* topups.findLivePendingByPayable(4_001 as Uzs, at(1))).map((t) => t.id),
        [late.id]
      )
      assert.strictEqual((yield* topups.findLivePendingByPayable(4_000 as Uzs, at(minutes(15)))).length, 0)
      const expired = yield* topups.expireDue(at(minutes(15)))
      assert.deepStrictEqual(
        expired.map((t) => [t.id, t.status]),
        [[early.id, "expired"]]
      )
      assert.strictEqual((yield* topups.expireDue(at(minutes(15)))).length, 0)
      assert.strictEqual((yield* topups.expireDue(at(minutes(25)))).length, 1)
    })
  )

  test(
    "attachReceipt moves the owner's live pending top-up to review (payable first, then requested), keeping its payable",
    Effect.gen(function* () {
      const topups = yield* Topups
      const ann = yield* newUser(9)
      const ben = yield* newUser(10)
      const receipt = (n: number) => ({
        key: `receipts/9/r${n}`,
        contentType: "image/png",
        size: 100 + n,
        sha256: null
      })
      const attach = (userId: UserId, amount: number, now: Date, n: number) =>
        topups.attachReceipt({ userId, amountUzs: amount as Uzs, receipt: receipt(n), now })
      const x = yield* pending(ann.id, 10_000)
      const y = yield* pending(ann.id, 10_000)
      yield* pending(ben.id, 20_000)
      const first = Option.getOrThrow(yield* attach(ann.id, 10_000, at(2), 1))
      assert.deepStrictEqual(
        [first.id, first.status, first.method, first.requestedUzs, first.payableUzs, first.receipt],
        [x.id, "review", "card", 10_000, 10_000, receipt(1)]
      )
      assert.deepStrictEqual([first.expiresAt, first.updatedAt], [x.expiresAt, at(2)])
      assert.deepStrictEqual(Option.getOrThrow(yield* topups.find(x.id)), first)
      const second = Option.getOrThrow(yield* attach(ann.id, 10_000, at(3), 2))
      assert.deepStrictEqual([second.id, second.payableUzs], [y.id, 10_001])
      assert.isTrue(Option.isNone(yield* attach(ann.id, 10_000, at(4), 3)))
      assert.isTrue(Option.isNone(yield* attach(ann.id, 20_000, at(4), 4)), "someone else's top-up")
      const late = yield* pending(ann.id, 30_000)
      assert.isTrue(Option.isNone(yield* attach(ann.id, 30_000, at(minutes(15)), 5)), "past its expiry")
      assert.strictEqual(Option.getOrThrow(yield* topups.find(late.id)).status, "pending")
      // Card top-ups in review keep their payable amounts to themselves: a new request moves on.
      assert.strictEqual((yield* pending(ben.id, 10_000)).payableUzs, 10_002)
      // A bank payment may still confirm them, past the old expiry too; a pending one only while live.
      const matchable = (amount: number, now: Date) =>
        Effect.map(topups.findHoldingPayable(amount as Uzs), (ts) =>
          ts.filter((t) => matchesPayment(t, now)).map((t) => t.id)
        )
      assert.deepStrictEqual(yield* matchable(10_000, at(minutes(60))), [x.id])
      assert.deepStrictEqual(yield* matchable(10_001, at(minutes(60))), [y.id])
      assert.deepStrictEqual(yield* matchable(30_000, at(1)), [late.id])
      assert.deepStrictEqual(yield* matchable(30_000, at(minutes(15))), [])
      assert.deepStrictEqual(
        (yield* topups.findLivePendingByPayable(10_000 as Uzs, at(1))).map((t) => t.id),
        []
      )
      // A receipt-only top-up shares no key with them and is never matchable by a payment.
      const stated = yield* topups.insertReview({
        userId: ben.id,
        requestedUzs: 10_000 as Uzs,
        receipt: receipt(6),
        now: t0
      })
      assert.deepStrictEqual(yield* matchable(10_000, at(1)), [x.id])
      assert.strictEqual(stated.payableUzs, 10_000)
      // Paid, it frees its payable amount.
      yield* topups.transition(x.id, ["review"], "paid", { creditedUzs: 10_000 as Uzs, confirmedBy: "payment" }, at(5))
      assert.strictEqual((yield* pending(ben.id, 10_000)).payableUzs, 10_000)
    })
  )
}

export const paymentsContract = (test: StoreTest) => {
  test(
    "record is idempotent by external id; without one every call records",
    Effect.gen(function* () {
      const payments = yield* IncomingPayments
      const first = yield* payments.record({ amountUzs: 10_001 as Uzs, cardLast4: "4242", externalId: "sms-1" }, t0)
      const again = yield* payments.record({ amountUzs: 99 as Uzs, cardLast4: null, externalId: "sms-1" }, at(1))
      assert.isTrue(first.created)
      assert.isFalse(again.created)
      assert.deepStrictEqual(again.payment, first.payment)
      assert.strictEqual(first.payment.status, "received")
      assert.strictEqual(first.payment.cardLast4, "4242")
      const anonymous1 = yield* payments.record({ amountUzs: 500 as Uzs, cardLast4: null, externalId: null }, t0)
      const anonymous2 = yield* payments.record({ amountUzs: 500 as Uzs, cardLast4: null, externalId: null }, t0)
      assert.isTrue(anonymous1.created && anonymous2.created)
      assert.notStrictEqual(anonymous1.payment.id, anonymous2.payment.id)
    })
  )

  test(
    "markMatched once; markUnresolved only while unmatched; list oldest first with filters",
    Effect.gen(function* () {
      const payments = yield* IncomingPayments
      const user = yield* newUser(8)
      const topup = yield* pending(user.id, 1_000)
      const { payment } = yield* payments.record({ amountUzs: 1_000 as Uzs, cardLast4: null, externalId: "m-1" }, t0)
      const { payment: other } = yield* payments.record(
        { amountUzs: 1_500 as Uzs, cardLast4: null, externalId: "m-2" },
        t0
      )
      const unresolved = yield* payments.markUnresolved(other.id, "ambiguous", at(1))
      assert.strictEqual(unresolved.status, "ambiguous")
      const matched = yield* payments.markMatched(payment.id, topup.id, at(2))
      assert.strictEqual(matched.status, "matched")
      assert.strictEqual(matched.topupId, topup.id)
      const twice = yield* Effect.flip(payments.markMatched(payment.id, topup.id, at(3)))
      assert.strictEqual(twice._tag, "PaymentAlreadyMatched")
      const late = yield* Effect.flip(payments.markUnresolved(payment.id, "unmatched", at(3)))
      assert.strictEqual(late._tag, "PaymentAlreadyMatched")
      const missing = yield* Effect.flip(payments.markMatched(999 as PaymentId, topup.id, at(3)))
      assert.strictEqual(missing._tag, "PaymentNotFound")
      assert.deepStrictEqual(
        (yield* payments.list({ offset: 0, limit: 10 })).items.map((p) => p.id),
        [payment.id, other.id]
      )
      const open = yield* payments.list({ status: ["unmatched", "ambiguous"], offset: 0, limit: 10 })
      assert.deepStrictEqual(
        open.items.map((p) => p.id),
        [other.id]
      )
      // Operators' filters: newest first, by amount, by arrival window [from, to).
      const { payment: later } = yield* payments.record(
        { amountUzs: 1_500 as Uzs, cardLast4: null, externalId: "m-3" },
        at(minutes(60))
      )
      const ids = (filter: Omit<Parameters<typeof payments.list>[0], "offset" | "limit">) =>
        Effect.map(payments.list({ ...filter, offset: 0, limit: 10 }), (page) => page.items.map((p) => p.id))
      assert.deepStrictEqual(yield* ids({ newestFirst: true }), [later.id, other.id, payment.id])
      assert.deepStrictEqual(yield* ids({ amountUzs: 1_500 }), [other.id, later.id])
      assert.deepStrictEqual(yield* ids({ from: at(minutes(30)) }), [later.id])
      assert.deepStrictEqual(yield* ids({ to: at(minutes(30)), amountUzs: 1_500 }), [other.id])
      assert.strictEqual(Option.getOrThrow(yield* payments.find(other.id)).status, "ambiguous")
    })
  )

  test(
    "one payment per top-up is checked at commit: a use case that fails later still gets its own error",
    Effect.gen(function* () {
      const payments = yield* IncomingPayments
      const tx = yield* Transactor
      const user = yield* newUser(9)
      const topup = yield* pending(user.id, 2_000)
      const { payment: first } = yield* payments.record(
        { amountUzs: 2_000 as Uzs, cardLast4: null, externalId: "d-1" },
        t0
      )
      const { payment: second } = yield* payments.record(
        { amountUzs: 2_000 as Uzs, cardLast4: null, externalId: "d-2" },
        t0
      )
      yield* payments.markMatched(first.id, topup.id, at(1))
      // Claiming the same top-up again inside a transaction that then fails: the typed failure comes out.
      const failed = yield* Effect.flip(
        tx.withTransaction(
          Effect.gen(function* () {
            yield* payments.markMatched(second.id, topup.id, at(2))
            return yield* Effect.fail("topup already paid" as const)
          })
        )
      )
      assert.strictEqual(failed, "topup already paid")
      assert.strictEqual(Option.getOrThrow(yield* payments.find(second.id)).status, "received")
      // Committing it is refused by the database.
      const exit = yield* Effect.exit(tx.withTransaction(payments.markMatched(second.id, topup.id, at(3))))
      assert.strictEqual(exit._tag, "Failure")
      assert.strictEqual(Option.getOrThrow(yield* payments.find(second.id)).status, "received")
    })
  )
}
