/**
 * The payments job on real PostgreSQL: an unmatched card payment is matched to the one pending
 * top-up of exactly its amount created after it (within the window), never to one created later than
 * that, and never to one whose owner a receipt-only credit of that amount may already have paid
 * (held ambiguous for an operator: the double credit of issue 11); pending top-ups past their expiry are expired once, with their notification.
 */
import { assert, layer } from "@effect/vitest"
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { TopupSettings } from "@resale/core/topups/TopupSettings.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { rematchRound } from "@resale/worker/payments/PaymentsJob.ts"
import { WorkerConfig } from "@resale/worker/WorkerConfig.ts"
import { Duration, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { withShiftedClock } from "../support/ShiftedClock.ts"

// Windows far longer than any pause of a loaded machine; the tests jump past them on a shifted clock.
const Stack = CoreServices.pipe(
  Layer.provideMerge(WorkerConfig.layerTest({ rematchWindow: Duration.minutes(1) })),
  Layer.provideMerge(IsolatedPostgres.layerStore),
  Layer.provideMerge(
    Layer.succeed(TopupSettings)({ minUzs: 1_000, maxUzs: 100_000_000, ttlMs: 60_000, receiptMaxBytes: 1024 })
  )
)

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])

let telegramId = 910_000
const newUser = Effect.gen(function* () {
  const id = ++telegramId
  return yield* (yield* Accounts).signIn({ telegramId: id, username: `payer${id}`, firstName: null, photoUrl: null })
})

layer(Stack, { timeout: "60 seconds", excludeTestServices: true })("payments job", (it) => {
  it.effect("an unmatched payment matches the top-up created after it, once; not one created past the window", () =>
    withShiftedClock((clock) =>
      Effect.gen(function* () {
        const payments = yield* Payments
        const topups = yield* TopupService
        const early = yield* payments.incoming({ amountUzs: 123_456, externalId: "bank-1" })
        assert.strictEqual(early.outcome, "unmatched")
        const user = yield* newUser
        const topup = yield* topups.create(user.id, 123_456)
        assert.strictEqual(topup.payableUzs, 123_456)

        const matched = yield* rematchRound
        assert.deepStrictEqual(
          matched.map((m) => [m.outcome, m.payment.id, Option.map(m.topup, (t) => [t.id, t.status])]),
          [["matched", early.payment.id, Option.some([topup.id, "paid"])]]
        )
        assert.strictEqual((yield* payments.find(early.payment.id)).status, "matched")
        const sql = yield* SqlClient
        const [credit] = yield* sql<{ n: bigint; total: string }>`
        SELECT count(*) AS n, sum(amount_uzs) AS total FROM ledger_entries WHERE cause = 'topup' AND cause_id = ${String(topup.id)}`
        assert.deepStrictEqual([Number(credit?.n), Number(credit?.total)], [1, 123_456])
        assert.deepStrictEqual(yield* rematchRound, [])

        // A top-up created after the window belongs to someone who has not paid: not matched.
        const stale = yield* payments.incoming({ amountUzs: 222_222, externalId: "bank-2" })
        yield* clock.advance("61 seconds")
        const late = yield* topups.create((yield* newUser).id, 222_222)
        assert.strictEqual(late.payableUzs, 222_222)
        assert.deepStrictEqual(yield* rematchRound, [])
        assert.strictEqual((yield* payments.find(stale.payment.id)).status, "unmatched")
        yield* topups.cancel(late.userId, late.id)
      })
    )
  )

  it.effect(
    "a bank payment a receipt-only credit may already be is never re-matched to a new top-up (no double credit)",
    () =>
      Effect.gen(function* () {
        const payments = yield* Payments
        const topups = yield* TopupService
        const shopper = yield* newUser
        // The shopper's receipt top-up of A is approved on the receipt's word alone.
        const byReceipt = yield* topups.createWithReceipt(shopper.id, 333_000, PNG)
        yield* topups.approve(byReceipt.id, "receipt looks right")
        // The bank payment of A arrives afterwards: nothing pending has this amount.
        const bank = yield* payments.incoming({ amountUzs: 333_000, externalId: "bank-receipt-first" })
        assert.strictEqual(bank.outcome, "unmatched")
        // A new card top-up of A that the shopper never pays, within the re-match window.
        const unpaid = yield* topups.create(shopper.id, 333_000)
        assert.strictEqual(unpaid.payableUzs, 333_000)

        // Held for an operator, exactly as if the payment had arrived after the top-up was opened.
        const held = yield* rematchRound
        assert.deepStrictEqual(
          held.map((r) => [r.outcome, r.payment.id]),
          [["ambiguous", bank.payment.id]]
        )
        assert.strictEqual((yield* topups.find({ kind: "operator" }, unpaid.id)).status, "pending")
        assert.strictEqual((yield* payments.find(bank.payment.id)).status, "ambiguous")
        const sql = yield* SqlClient
        const [row] = yield* sql<{
          balance_uzs: bigint
        }>`SELECT balance_uzs FROM accounts WHERE user_id = ${shopper.id}`
        assert.strictEqual(Number(row?.balance_uzs), 333_000)
        yield* topups.cancel(unpaid.userId, unpaid.id)
      })
  )

  it.effect("pending top-ups past their expiry are expired once, with a notification", () =>
    withShiftedClock((clock) =>
      Effect.gen(function* () {
        const topups = yield* TopupService
        const user = yield* newUser
        const topup = yield* topups.create(user.id, 50_000)
        assert.deepStrictEqual(yield* topups.expireDue, [])
        yield* clock.advance("61 seconds")
        const expired = yield* topups.expireDue
        assert.deepStrictEqual(
          expired.map((t) => [t.id, t.status]),
          [[topup.id, "expired"]]
        )
        assert.deepStrictEqual(yield* topups.expireDue, [])
        const sql = yield* SqlClient
        const events = yield* sql<{ kind: string }>`SELECT kind FROM outbox_events WHERE user_id = ${user.id}`
        assert.deepStrictEqual(
          events.map((e) => e.kind),
          ["topup.expired"]
        )
      })
    )
  )
})
