import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import type { PaymentId, TopupId } from "../src/ids.ts"
import { Balances } from "../src/ledger/Balances.ts"
import type { Uzs } from "../src/money/Uzs.ts"
import { Payments } from "../src/payments/Payments.ts"
import { signUp } from "../src/testing/fixtures.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"
import { TopupService } from "../src/topups/TopupService.ts"

const balanceOf = (userId: Parameters<Balances["Service"]["balance"]>[0]) =>
  Effect.flatMap(Balances, (b) => b.balance(userId))

describe("Payments.incoming", () => {
  it.effect("an exact match confirms the one live pending top-up and credits it, in one go", () =>
    Effect.gen(function* () {
      const payments = yield* Payments
      const topups = yield* TopupService
      const alice = yield* signUp()
      const bob = yield* signUp()
      const a = yield* topups.create(alice.id, 100_000)
      const b = yield* topups.create(bob.id, 100_000)
      const result = yield* payments.incoming({ amountUzs: 100_001, cardLast4: "4242", externalId: "sms-1" })
      assert.strictEqual(result.outcome, "matched")
      assert.deepStrictEqual(
        [result.payment.status, result.payment.topupId, result.payment.cardLast4],
        ["matched", b.id, "4242"]
      )
      const topup = Option.getOrThrow(result.topup)
      assert.deepStrictEqual(
        [topup.id, topup.status, topup.paymentId, topup.confirmedBy],
        [b.id, "paid", result.payment.id, "payment"]
      )
      assert.strictEqual(yield* balanceOf(bob.id), 100_001)
      assert.strictEqual(yield* balanceOf(alice.id), 0)
      assert.strictEqual((yield* topups.find({ kind: "operator" }, a.id)).status, "pending")
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("no match: stored unmatched for an operator, nothing credited", () =>
    Effect.gen(function* () {
      const payments = yield* Payments
      const topups = yield* TopupService
      const alice = yield* signUp()
      const t = yield* topups.create(alice.id, 100_000)
      const result = yield* payments.incoming({ amountUzs: 100_000 + 5, externalId: null })
      assert.deepStrictEqual(
        [result.outcome, result.payment.status, Option.isNone(result.topup)],
        ["unmatched", "unmatched", true]
      )
      assert.strictEqual(yield* balanceOf(alice.id), 0)
      assert.strictEqual((yield* topups.find({ kind: "operator" }, t.id)).status, "pending")
      const listed = yield* payments.list({ status: ["unmatched", "ambiguous"], offset: 0, limit: 10 })
      assert.deepStrictEqual(
        listed.items.map((p) => p.id),
        [result.payment.id]
      )
      const db = yield* MemoryDb
      assert.deepStrictEqual(
        [...db.state().outbox.values()].map((e) => [e.kind, e.userId]),
        [["payment.unmatched", null]]
      )
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("two candidates: ambiguous, never guessed", () =>
    Effect.gen(function* () {
      const payments = yield* Payments
      const topups = yield* TopupService
      const alice = yield* signUp()
      const bob = yield* signUp()
      const a = yield* topups.create(alice.id, 40_000)
      const b = yield* topups.create(bob.id, 41_000)
      // A state the payable uniqueness should prevent (e.g. rows from an older release): the matcher must still not guess.
      const db = yield* MemoryDb
      db.state().topups.set(b.id, { ...db.state().topups.get(b.id)!, payableUzs: 40_000 as Uzs })
      const result = yield* payments.incoming({ amountUzs: 40_000, externalId: "sms-2" })
      assert.deepStrictEqual([result.outcome, result.payment.status], ["ambiguous", "ambiguous"])
      assert.strictEqual((yield* topups.find({ kind: "operator" }, a.id)).status, "pending")
      assert.strictEqual((yield* topups.find({ kind: "operator" }, b.id)).status, "pending")
      assert.strictEqual((yield* balanceOf(alice.id)) + (yield* balanceOf(bob.id)), 0)
      // the rematch job leaves ambiguous payments to operators
      assert.strictEqual((yield* payments.rematchUnmatched()).length, 0)
      // the operator decides
      const assigned = yield* payments.assign(result.payment.id, b.id)
      assert.strictEqual(assigned.payment.status, "matched")
      assert.strictEqual(yield* balanceOf(bob.id), 40_000)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("the same external_id twice is processed once and returns the first record", () =>
    Effect.gen(function* () {
      const payments = yield* Payments
      const topups = yield* TopupService
      const alice = yield* signUp()
      yield* topups.create(alice.id, 25_000)
      yield* topups.create(alice.id, 25_000)
      const first = yield* payments.incoming({ amountUzs: 25_000, externalId: "bank-77" })
      const second = yield* payments.incoming({ amountUzs: 25_001, externalId: "bank-77" })
      assert.deepStrictEqual([first.outcome, second.outcome], ["matched", "duplicate"])
      assert.strictEqual(second.payment.id, first.payment.id)
      assert.strictEqual(second.payment.amountUzs, 25_000)
      assert.strictEqual(Option.getOrThrow(second.topup).id, Option.getOrThrow(first.topup).id)
      assert.strictEqual(yield* balanceOf(alice.id), 25_000)
      // without an external id, two reports are two payments
      const x = yield* payments.incoming({ amountUzs: 25_001 })
      const y = yield* payments.incoming({ amountUzs: 25_001 })
      assert.deepStrictEqual([x.outcome, y.outcome], ["matched", "unmatched"])
      assert.strictEqual(yield* balanceOf(alice.id), 50_001)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("a top-up past its expiry is not matched, even before the worker expired it", () =>
    Effect.gen(function* () {
      const payments = yield* Payments
      const topups = yield* TopupService
      const alice = yield* signUp()
      const t = yield* topups.create(alice.id, 9_000)
      yield* TestClock.adjust("15 minutes")
      const result = yield* payments.incoming({ amountUzs: 9_000, externalId: "late" })
      assert.strictEqual(result.outcome, "unmatched")
      assert.strictEqual((yield* topups.find({ kind: "operator" }, t.id)).status, "pending")
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("rejects unusable fields", () =>
    Effect.gen(function* () {
      const payments = yield* Payments
      const errors = yield* Effect.all([
        Effect.flip(payments.incoming({ amountUzs: 0 })),
        Effect.flip(payments.incoming({ amountUzs: 10.5 })),
        Effect.flip(payments.incoming({ amountUzs: 1000, cardLast4: "12a4" })),
        Effect.flip(payments.incoming({ amountUzs: 1000, externalId: "x".repeat(201) }))
      ])
      assert.deepStrictEqual(
        errors.map((e) => e.reason),
        ["Amount", "Amount", "CardLast4", "ExternalId"]
      )
      assert.strictEqual((yield* MemoryDb).state().payments.size, 0)
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("Payments.assign and rematch", () => {
  it.effect("an operator assigns an unmatched payment to an expired top-up, crediting what arrived, once", () =>
    Effect.gen(function* () {
      const payments = yield* Payments
      const topups = yield* TopupService
      const alice = yield* signUp()
      const t = yield* topups.create(alice.id, 9_000)
      yield* TestClock.adjust("20 minutes")
      yield* topups.expireDue
      const p = yield* payments.incoming({ amountUzs: 9_000, externalId: "late-1" })
      assert.strictEqual(p.outcome, "unmatched")
      const assigned = yield* payments.assign(p.payment.id, t.id)
      assert.deepStrictEqual([assigned.payment.status, assigned.payment.topupId], ["matched", t.id])
      assert.deepStrictEqual(
        [Option.getOrThrow(assigned.topup).status, Option.getOrThrow(assigned.topup).creditedUzs],
        ["paid", 9_000]
      )
      assert.strictEqual(yield* balanceOf(alice.id), 9_000)
      const again = yield* Effect.flip(payments.assign(p.payment.id, t.id))
      assert.strictEqual(again._tag, "PaymentAlreadyMatched")
      const other = yield* topups.create(alice.id, 9_000)
      assert.strictEqual((yield* Effect.flip(payments.assign(p.payment.id, other.id)))._tag, "PaymentAlreadyMatched")
      assert.strictEqual((yield* Effect.flip(payments.assign(999 as PaymentId, other.id)))._tag, "PaymentNotFound")
      assert.strictEqual(yield* balanceOf(alice.id), 9_000)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("assigning to a top-up that is paid or missing fails and leaves the payment unmatched", () =>
    Effect.gen(function* () {
      const payments = yield* Payments
      const topups = yield* TopupService
      const alice = yield* signUp()
      const t = yield* topups.create(alice.id, 3_000)
      yield* topups.approve(t.id)
      const p = yield* payments.incoming({ amountUzs: 3_000, externalId: "dup" })
      const error = yield* Effect.flip(payments.assign(p.payment.id, t.id))
      assert.strictEqual(error._tag, "TopupTransitionInvalid")
      assert.strictEqual((yield* Effect.flip(payments.assign(p.payment.id, 777 as TopupId)))._tag, "TopupNotFound")
      assert.strictEqual((yield* payments.find(p.payment.id)).status, "unmatched")
      assert.strictEqual(yield* balanceOf(alice.id), 3_000)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("rematch takes only top-ups that existed when the payment arrived", () =>
    Effect.gen(function* () {
      const payments = yield* Payments
      const topups = yield* TopupService
      const alice = yield* signUp()
      const bob = yield* signUp()
      // A payment nobody had asked for yet: a top-up created afterwards must not receive it.
      const early = yield* payments.incoming({ amountUzs: 12_000, externalId: "early" })
      yield* TestClock.adjust("1 minute")
      yield* topups.create(bob.id, 12_000)
      assert.strictEqual((yield* payments.rematchUnmatched()).length, 0)
      assert.strictEqual((yield* payments.find(early.payment.id)).status, "unmatched")
      // A payment stored unmatched while alice's top-up already existed (e.g. a lost race): rematched.
      const t = yield* topups.create(alice.id, 15_000)
      const db = yield* MemoryDb
      const later = yield* payments.incoming({ amountUzs: 99_999, externalId: "raced" })
      db.state().payments.set(later.payment.id, {
        ...db.state().payments.get(later.payment.id)!,
        amountUzs: 15_000 as Uzs
      })
      const matched = yield* payments.rematchUnmatched()
      assert.deepStrictEqual(
        matched.map((r) => [r.payment.id, Option.getOrThrow(r.topup).id]),
        [[later.payment.id, t.id]]
      )
      assert.strictEqual(yield* balanceOf(alice.id), 15_000)
      assert.strictEqual(yield* balanceOf(bob.id), 0)
    }).pipe(Effect.provide(layerMemory))
  )
})
