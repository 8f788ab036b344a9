/**
 * A card top-up its owner also sent a receipt for, on real PostgreSQL through the core's services:
 * the bank payment and the operator's approve race for it, and exactly one of them credits it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Payments, TopupService, type UserId } from "@resale/core"
import { Effect, Layer, Option, Result } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { PgStore } from "../src/PgStore.ts"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import { booked, newUser } from "./contract/support.ts"

const Live = Layer.mergeAll(Payments.layer, TopupService.layer).pipe(
  Layer.provideMerge(PgStore.layer.pipe(Layer.provideMerge(IsolatedPostgres.make(16))))
)

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
// Each receipt is another photo: the same file twice would be held as a duplicate.
let photos = 0
const png = () => new Uint8Array([...PNG, ++photos & 0xff, photos >> 8])

const withReceipt = (userId: UserId, amount: number) =>
  TopupService.use((t) => t.createWithReceipt(userId, amount, png())).pipe(Effect.orDie)

describe("receipts for card top-ups (real PostgreSQL)", () => {
  it.effect(
    "the receipt goes to the pending top-up; bank first, then approve: one credit and a conflict",
    () =>
      Effect.gen(function* () {
        const user = yield* newUser(1)
        const card = yield* TopupService.use((t) => t.create(user.id, 70_000))
        const review = yield* withReceipt(user.id, 70_000)
        assert.deepStrictEqual(
          [review.id, review.status, review.method, review.payableUzs],
          [card.id, "review", "card", 70_000]
        )
        const sql = yield* SqlClient
        assert.deepStrictEqual(yield* sql`SELECT count(*)::int AS n FROM topups`, [{ n: 1 }])
        const bank = yield* Payments.use((p) => p.incoming({ amountUzs: 70_000, externalId: "bank-1" }))
        assert.deepStrictEqual([bank.outcome, Option.getOrThrow(bank.topup).id], ["matched", card.id])
        const approve = yield* Effect.flip(TopupService.use((t) => t.approve(card.id)))
        assert.deepStrictEqual(
          [approve._tag, approve._tag === "TopupTransitionInvalid" && approve.from],
          ["TopupTransitionInvalid", "paid"]
        )
        assert.deepStrictEqual(yield* booked(user.id), { balance: 70_000, sum: 70_000, entries: 1 })
      }).pipe(Effect.provide(Live)),
    60_000
  )

  it.effect(
    "approve first, then the bank payment: one credit, the payment stays unmatched",
    () =>
      Effect.gen(function* () {
        const user = yield* newUser(2)
        const card = yield* TopupService.use((t) => t.create(user.id, 90_000))
        yield* withReceipt(user.id, 90_000)
        yield* TopupService.use((t) => t.approve(card.id, "receipt checked"))
        const bank = yield* Payments.use((p) => p.incoming({ amountUzs: 90_000, externalId: "bank-2" }))
        assert.deepStrictEqual([bank.outcome, bank.payment.status], ["unmatched", "unmatched"])
        const again = yield* Payments.use((p) => p.incoming({ amountUzs: 90_000, externalId: "bank-2" }))
        assert.strictEqual(again.outcome, "duplicate")
        assert.deepStrictEqual(yield* booked(user.id), { balance: 90_000, sum: 90_000, entries: 1 })
      }).pipe(Effect.provide(Live)),
    60_000
  )

  it.effect(
    "bank payment and approve at the same moment, 12 times over: each top-up credited exactly once",
    () =>
      Effect.gen(function* () {
        const rounds = yield* Effect.forEach(
          Array.from({ length: 12 }, (_, n) => n),
          (n) =>
            Effect.gen(function* () {
              const user = yield* newUser(100 + n)
              const card = yield* TopupService.use((t) => t.create(user.id, 10_000 + 1_000 * n))
              yield* withReceipt(user.id, card.payableUzs)
              const [bank, approve] = yield* Effect.all(
                [
                  Payments.use((p) => p.incoming({ amountUzs: card.payableUzs, externalId: `race-${n}` })),
                  Effect.result(TopupService.use((t) => t.approve(card.id)))
                ],
                { concurrency: 2 }
              )
              const approved = Result.isSuccess(approve)
              if (!approved) assert.strictEqual(approve.failure._tag, "TopupTransitionInvalid")
              // Exactly one of the two confirmed it; the other one moved nothing.
              assert.strictEqual(Number(bank.outcome === "matched") + Number(approved), 1)
              assert.strictEqual(bank.outcome, approved ? "unmatched" : "matched")
              assert.deepStrictEqual(yield* booked(user.id), {
                balance: card.payableUzs,
                sum: card.payableUzs,
                entries: 1
              })
              return approved
            }),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(rounds.length, 12)
      }).pipe(Effect.provide(Live)),
    60_000
  )

  it.effect(
    "a receipt and the bank payment at once: the card top-up is paid once, by the payment",
    () =>
      Effect.gen(function* () {
        const outcomes = yield* Effect.forEach(
          Array.from({ length: 12 }, (_, n) => n),
          (n) =>
            Effect.gen(function* () {
              const user = yield* newUser(200 + n)
              const card = yield* TopupService.use((t) => t.create(user.id, 200_000 + 1_000 * n))
              const [receipt, bank] = yield* Effect.all(
                [
                  withReceipt(user.id, card.payableUzs),
                  Payments.use((p) => p.incoming({ amountUzs: card.payableUzs, externalId: `both-${n}` }))
                ],
                { concurrency: 2 }
              )
              assert.deepStrictEqual([bank.outcome, Option.getOrThrow(bank.topup).id], ["matched", card.id])
              // The receipt either reached the top-up in time, or (paid already) waits on a top-up of its own.
              if (receipt.id !== card.id)
                assert.deepStrictEqual([receipt.method, receipt.status], ["receipt", "review"])
              else assert.strictEqual(receipt.method, "card")
              assert.deepStrictEqual(yield* booked(user.id), {
                balance: card.payableUzs,
                sum: card.payableUzs,
                entries: 1
              })
              return receipt.id === card.id
            }),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(outcomes.length, 12)
      }).pipe(Effect.provide(Live)),
    60_000
  )

  it.effect(
    "the database itself refuses a second open card top-up on a payable amount held by one in review",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient
        const user = yield* newUser(3)
        const card = yield* TopupService.use((t) => t.create(user.id, 55_000))
        yield* withReceipt(user.id, 55_000)
        const insert = (status: string) =>
          sql`
          INSERT INTO topups (user_id, method, requested_uzs, payable_uzs, status, expires_at, created_at, updated_at)
          VALUES (${user.id}, 'card', 55000, 55000, ${status}, now(), now(), now())`
        const pending = yield* Effect.exit(insert("pending"))
        const review = yield* Effect.exit(insert("review"))
        assert.deepStrictEqual([pending._tag, review._tag], ["Failure", "Failure"])
        // Once the one in review is settled, its amount is quarantined rather than handed to another account's top-up.
        yield* TopupService.use((t) => t.reject(card.id, "not our card"))
        const other = yield* newUser(4)
        assert.strictEqual((yield* TopupService.use((t) => t.create(other.id, 55_000))).payableUzs, 55_001)
      }).pipe(Effect.provide(Live)),
    60_000
  )
})
