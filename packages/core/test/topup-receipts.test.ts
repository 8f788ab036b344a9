import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import type { UserId } from "../src/ids.ts"
import { Balances } from "../src/ledger/Balances.ts"
import { Payments } from "../src/payments/Payments.ts"
import { signUp } from "../src/testing/fixtures.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"
import { TopupService } from "../src/topups/TopupService.ts"
import { AccountCaps, DEFAULT_ACCOUNT_CAPS } from "../src/caps/CapSettings.ts"

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
// Every upload below is another photo: the same file twice is a duplicate of its own (receipt-hashes.test.ts).
let photos = 0
const png = () => new Uint8Array([...PNG, ++photos & 0xff, photos >> 8])

const balanceOf = (userId: UserId) => Effect.flatMap(Balances, (b) => b.balance(userId))
const creditsOf = (userId: UserId) =>
  Effect.map(
    Effect.flatMap(Balances, (b) => b.entries(userId, { offset: 0, limit: 50 })),
    (page) => page.items.length
  )
const topupCount = Effect.map(MemoryDb, (db) => db.state().topups.size)
const outbox = Effect.map(MemoryDb, (db) => [...db.state().outbox.values()].map((e) => [e.kind, e.payload] as const))

describe("a receipt for money sent to a pending card top-up", () => {
  it.effect("goes to that top-up (payable amount first, then requested), which awaits review keeping its payable", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      const x = yield* topups.create(alice.id, 30_000)
      const y = yield* topups.create(alice.id, 30_000)
      assert.deepStrictEqual([x.payableUzs, y.payableUzs], [30_000, 30_001])
      // 30 000 is x's payable and y's requested amount: the exact payable wins.
      yield* TestClock.adjust("2 minutes")
      const first = yield* topups.createWithReceipt(alice.id, 30_000, PNG)
      assert.deepStrictEqual(
        [first.id, first.status, first.method, first.requestedUzs, first.payableUzs, first.receipt?.contentType],
        [x.id, "review", "card", 30_000, 30_000, "image/png"]
      )
      assert.deepStrictEqual(first.expiresAt, x.expiresAt)
      assert.strictEqual(first.updatedAt.getTime() - x.createdAt.getTime(), 2 * 60_000)
      // x is in review now; the same amount matches y by its requested amount.
      const second = yield* topups.createWithReceipt(alice.id, 30_000, png())
      assert.deepStrictEqual([second.id, second.status, second.payableUzs], [y.id, "review", 30_001])
      assert.strictEqual(yield* topupCount, 2)
      // Nothing pending is left: a third receipt is a top-up of its own, at the stated amount.
      const third = yield* topups.createWithReceipt(alice.id, 30_000, png())
      assert.deepStrictEqual(
        [third.method, third.status, third.payableUzs, third.expiresAt],
        ["receipt", "review", 30_000, null]
      )
      assert.strictEqual(yield* topupCount, 3)
      const own = yield* topups.receipt({ kind: "user", userId: alice.id }, x.id)
      assert.deepStrictEqual(Array.from(own.bytes), Array.from(PNG))
      assert.deepStrictEqual(
        (yield* outbox).map(([kind, p]) => [kind, p["topupId"], p["amountUzs"]]),
        [
          ["topup.review", x.id, 30_000],
          ["topup.review", y.id, 30_001],
          ["topup.review", third.id, 30_000]
        ]
      )
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("never takes someone else's, an expired, a cancelled or a differently sized top-up", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      const bob = yield* signUp()
      const bobs = yield* topups.create(bob.id, 40_000)
      const cancelled = yield* topups.create(alice.id, 41_000)
      yield* topups.cancel(alice.id, cancelled.id)
      const late = yield* topups.create(alice.id, 42_000)
      const other = yield* topups.create(alice.id, 43_000)
      yield* TestClock.adjust("15 minutes") // `late` and `other` are past their expiry, not yet expired by the worker
      const fresh = yield* topups.create(alice.id, 44_000)
      const receipts = [
        yield* topups.createWithReceipt(alice.id, 40_000, png()),
        yield* topups.createWithReceipt(alice.id, 41_000, png()),
        yield* topups.createWithReceipt(alice.id, 42_000, png()),
        yield* topups.createWithReceipt(alice.id, 44_500, png())
      ]
      assert.deepStrictEqual(
        receipts.map((t) => t.method),
        ["receipt", "receipt", "receipt", "receipt"]
      )
      const seen = (id: typeof bobs.id) => Effect.map(topups.find({ kind: "operator" }, id), (t) => t.status)
      assert.deepStrictEqual(
        [
          yield* seen(bobs.id),
          yield* seen(cancelled.id),
          yield* seen(late.id),
          yield* seen(other.id),
          yield* seen(fresh.id)
        ],
        ["pending", "cancelled", "pending", "pending", "pending"]
      )
    }).pipe(
      Effect.provide(layerMemory),
      Effect.provideService(AccountCaps, { ...DEFAULT_ACCOUNT_CAPS, openCardTopups: 10, openReviews: 10 })
    )
  )

  it.effect("a card top-up in review keeps its payable amount to itself and no longer expires", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const payments = yield* Payments
      const alice = yield* signUp()
      const bob = yield* signUp()
      const t = yield* topups.create(alice.id, 60_000)
      yield* topups.createWithReceipt(alice.id, 60_000, png())
      // bob asks for the same amount: 60 000 is still alice's to be paid with.
      assert.strictEqual((yield* topups.create(bob.id, 60_000)).payableUzs, 60_001)
      yield* TestClock.adjust("1 hour")
      const expired = yield* topups.expireDue
      assert.deepStrictEqual(
        expired.map((e) => e.payableUzs),
        [60_001]
      )
      // The bank message comes late: the top-up in review is still the one it pays.
      const paid = yield* payments.incoming({ amountUzs: 60_000, externalId: "late-bank" })
      assert.deepStrictEqual([paid.outcome, Option.getOrThrow(paid.topup).id], ["matched", t.id])
      assert.strictEqual(yield* balanceOf(alice.id), 60_000)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("a top-up created with a receipt only is never matched by a bank payment (its amount is not unique)", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const payments = yield* Payments
      const alice = yield* signUp()
      const t = yield* topups.createWithReceipt(alice.id, 45_000, png())
      const result = yield* payments.incoming({ amountUzs: 45_000, externalId: "sms-45" })
      assert.strictEqual(result.outcome, "unmatched")
      assert.strictEqual((yield* topups.find({ kind: "operator" }, t.id)).status, "review")
      assert.strictEqual(yield* balanceOf(alice.id), 0)
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("bank payment and operator approve of one top-up: one credit, whichever comes first", () => {
  it.effect("bank first: the payment confirms the top-up in review; the operator's approve is a conflict", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const payments = yield* Payments
      const alice = yield* signUp()
      const t = yield* topups.create(alice.id, 100_000)
      const review = yield* topups.createWithReceipt(alice.id, 100_000, png())
      assert.deepStrictEqual([review.id, review.status], [t.id, "review"])
      const bank = yield* payments.incoming({ amountUzs: 100_000, cardLast4: "4242", externalId: "sms-100" })
      assert.strictEqual(bank.outcome, "matched")
      const paid = Option.getOrThrow(bank.topup)
      assert.deepStrictEqual(
        [paid.id, paid.status, paid.confirmedBy, paid.paymentId],
        [t.id, "paid", "payment", bank.payment.id]
      )
      const approve = yield* Effect.flip(topups.approve(t.id, "receipt looks fine"))
      assert.deepStrictEqual(
        [approve._tag, approve._tag === "TopupTransitionInvalid" && approve.from],
        ["TopupTransitionInvalid", "paid"]
      )
      assert.strictEqual((yield* Effect.flip(topups.markPaid(t.id)))._tag, "TopupTransitionInvalid")
      assert.strictEqual(yield* balanceOf(alice.id), 100_000)
      assert.strictEqual(yield* creditsOf(alice.id), 1)
      assert.deepStrictEqual(
        (yield* outbox).map(([kind]) => kind),
        ["topup.review", "topup.paid"]
      )
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("approve first: one credit; the bank payment finds nothing to pay and stays for an operator", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const payments = yield* Payments
      const alice = yield* signUp()
      const t = yield* topups.create(alice.id, 80_000)
      yield* topups.create(alice.id, 80_000) // a second one, 80 001: the receipt is not for it
      yield* topups.createWithReceipt(alice.id, 80_000, png())
      const approved = yield* topups.approve(t.id, "receipt matches the statement")
      assert.deepStrictEqual(
        [approved.status, approved.creditedUzs, approved.confirmedBy],
        ["paid", 80_000, "operator"]
      )
      const bank = yield* payments.incoming({ amountUzs: 80_000, externalId: "sms-80" })
      assert.deepStrictEqual(
        [bank.outcome, bank.payment.status, Option.isNone(bank.topup)],
        ["unmatched", "unmatched", true]
      )
      const again = yield* payments.incoming({ amountUzs: 80_000, externalId: "sms-80" })
      assert.strictEqual(again.outcome, "duplicate")
      assert.strictEqual((yield* payments.rematchUnmatched()).length, 0)
      // Assigning it by hand to the paid top-up is refused as well.
      assert.strictEqual((yield* Effect.flip(payments.assign(bank.payment.id, t.id)))._tag, "TopupTransitionInvalid")
      assert.strictEqual((yield* payments.find(bank.payment.id)).status, "unmatched")
      assert.strictEqual(yield* balanceOf(alice.id), 80_000)
      assert.strictEqual(yield* creditsOf(alice.id), 1)
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("a receipt repeating a recent credit of the same amount", () => {
  it.effect(
    "waits for the operator to confirm it is a second payment; other amounts, users and old credits do not count",
    () =>
      Effect.gen(function* () {
        const topups = yield* TopupService
        const payments = yield* Payments
        const alice = yield* signUp()
        const bob = yield* signUp()
        // The card top-up is paid by the bank message, then its receipt comes in as well.
        const card = yield* topups.create(alice.id, 50_000)
        yield* payments.incoming({ amountUzs: 50_000, externalId: "sms-dup" })
        yield* TestClock.adjust("10 minutes")
        const again = yield* topups.createWithReceipt(alice.id, 50_000, png())
        assert.deepStrictEqual([again.method, again.status], ["receipt", "review"])
        assert.strictEqual(Option.getOrThrow(yield* topups.possibleDuplicate(again)).of.id, card.id)
        const refused = yield* Effect.flip(topups.approve(again.id, "looks fine"))
        assert.deepStrictEqual(
          [refused._tag, refused._tag === "TopupPossibleDuplicate" && refused.duplicateOf],
          ["TopupPossibleDuplicate", card.id]
        )
        assert.strictEqual((yield* topups.find({ kind: "operator" }, again.id)).status, "review")
        assert.strictEqual(yield* balanceOf(alice.id), 50_000)
        // Rejecting needs no confirmation; approving with it credits once.
        const confirmed = yield* topups.approve(again.id, "second transfer, checked", { confirmDuplicate: true })
        assert.deepStrictEqual([confirmed.status, confirmed.confirmedBy], ["paid", "operator"])
        assert.strictEqual(yield* balanceOf(alice.id), 100_000)
        // Another amount, another user's credit of the same amount: approved at once.
        const other = yield* topups.createWithReceipt(alice.id, 53_000, png())
        assert.strictEqual((yield* topups.approve(other.id)).status, "paid")
        const bobs = yield* topups.createWithReceipt(bob.id, 50_000, png())
        assert.isTrue(Option.isNone(yield* topups.possibleDuplicate(bobs)))
        assert.strictEqual((yield* topups.approve(bobs.id)).status, "paid")
        // Credits older than three days no longer count.
        yield* TestClock.adjust("73 hours")
        const later = yield* topups.createWithReceipt(alice.id, 53_000, png())
        assert.isTrue(Option.isNone(yield* topups.possibleDuplicate(later)))
        assert.strictEqual((yield* topups.approve(later.id)).status, "paid")
        assert.strictEqual(yield* balanceOf(alice.id), 100_000 + 53_000 + 53_000)
      }).pipe(Effect.provide(layerMemory))
  )

  it.effect(
    "matches the requested amount of a card top-up too, and holds a receipt attached to a new card top-up of that amount",
    () =>
      Effect.gen(function* () {
        const topups = yield* TopupService
        const payments = yield* Payments
        const alice = yield* signUp()
        const bob = yield* signUp()
        yield* topups.create(bob.id, 70_000) // holds 70 000: alice's payable becomes 70 001
        const card = yield* topups.create(alice.id, 70_000)
        assert.strictEqual(card.payableUzs, 70_001)
        yield* payments.incoming({ amountUzs: 70_001, externalId: "sms-70001" })
        const receipt = yield* topups.createWithReceipt(alice.id, 70_000, png())
        assert.strictEqual((yield* Effect.flip(topups.approve(receipt.id)))._tag, "TopupPossibleDuplicate")
        // A new card top-up of the credited amount, with "its" receipt: maybe the first transfer's receipt.
        const next = yield* topups.create(alice.id, 70_001)
        const attached = yield* topups.createWithReceipt(alice.id, next.payableUzs, png())
        assert.deepStrictEqual([attached.id, attached.method], [next.id, "card"])
        assert.strictEqual((yield* Effect.flip(topups.approve(attached.id)))._tag, "TopupPossibleDuplicate")
        // Its own bank payment still confirms it: that is the money, no operator needed.
        const paid = yield* payments.incoming({ amountUzs: next.payableUzs, externalId: "sms-70001-b" })
        assert.deepStrictEqual([paid.outcome, Option.getOrThrow(paid.topup).id], ["matched", next.id])
        // A receipt attached to a card top-up of an amount not credited lately is approved at once.
        const fresh = yield* topups.create(alice.id, 72_000)
        const freshReceipt = yield* topups.createWithReceipt(alice.id, fresh.payableUzs, png())
        assert.strictEqual((yield* topups.approve(freshReceipt.id)).status, "paid")
      }).pipe(Effect.provide(layerMemory))
  )

  it.effect("a bank payment assigned after its receipt was credited waits for the operator too", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const payments = yield* Payments
      const alice = yield* signUp()
      // The card top-up expires before the bank message comes; the receipt is approved meanwhile.
      const card = yield* topups.create(alice.id, 80_000)
      yield* TestClock.adjust("20 minutes")
      yield* topups.expireDue
      const receipt = yield* topups.createWithReceipt(alice.id, 80_000, png())
      yield* topups.approve(receipt.id)
      const late = yield* payments.incoming({ amountUzs: 80_000, externalId: "sms-late-80" })
      assert.strictEqual(late.outcome, "unmatched")
      assert.strictEqual(Option.getOrThrow(yield* payments.creditedOnReceipt(late.payment, card)).id, receipt.id)
      const refused = yield* Effect.flip(payments.assign(late.payment.id, card.id))
      assert.deepStrictEqual(
        [refused._tag, refused._tag === "PaymentPossibleDuplicate" && refused.creditedTopupId],
        ["PaymentPossibleDuplicate", receipt.id]
      )
      assert.strictEqual((yield* payments.find(late.payment.id)).status, "unmatched")
      assert.strictEqual(yield* balanceOf(alice.id), 80_000)
      const confirmed = yield* payments.assign(late.payment.id, card.id, { confirmDuplicate: true })
      assert.strictEqual(Option.getOrThrow(confirmed.topup).status, "paid")
      assert.strictEqual(yield* balanceOf(alice.id), 160_000)
      // A credit that came with its own bank payment is no receipt-only credit: no hold.
      const other = yield* topups.create(alice.id, 90_000)
      yield* payments.incoming({ amountUzs: other.payableUzs, externalId: "sms-90" })
      yield* TestClock.adjust("20 minutes")
      const expired = yield* topups.create(alice.id, 90_000)
      yield* TestClock.adjust("20 minutes")
      yield* topups.expireDue
      const stray = yield* payments.incoming({ amountUzs: expired.payableUzs, externalId: "sms-90-b" })
      assert.strictEqual(stray.outcome, "unmatched")
      assert.strictEqual(Option.getOrThrow((yield* payments.assign(stray.payment.id, expired.id)).topup).status, "paid")
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect(
    "a bank payment of a receipt-only credit's amount is not matched to the owner's new card top-up by itself",
    () =>
      Effect.gen(function* () {
        const topups = yield* TopupService
        const payments = yield* Payments
        const alice = yield* signUp()
        const receipt = yield* topups.createWithReceipt(alice.id, 45_000, png())
        yield* topups.approve(receipt.id)
        // A new card top-up of the same amount gets the same payable: the bank message cannot tell them apart.
        const card = yield* topups.create(alice.id, 45_000)
        assert.strictEqual(card.payableUzs, 45_000)
        const money = yield* payments.incoming({ amountUzs: 45_000, externalId: "sms-45-again" })
        assert.deepStrictEqual([money.outcome, Option.isNone(money.topup)], ["ambiguous", true])
        assert.strictEqual((yield* topups.find({ kind: "operator" }, card.id)).status, "pending")
        assert.strictEqual(yield* balanceOf(alice.id), 45_000)
        // A payable with an offset names its top-up: matched at once.
        const other = yield* topups.createWithReceipt(alice.id, 48_000, png())
        yield* topups.approve(other.id)
        const bob = yield* signUp()
        yield* topups.create(bob.id, 48_000)
        const offset = yield* topups.create(alice.id, 48_000)
        assert.strictEqual(offset.payableUzs, 48_001)
        const named = yield* payments.incoming({ amountUzs: 48_001, externalId: "sms-48001" })
        assert.strictEqual(named.outcome, "matched")
      }).pipe(Effect.provide(layerMemory))
  )
})
