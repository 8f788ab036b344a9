/**
 * Operators' reports on real PostgreSQL, through the core's use cases: a known set of top-ups (bank
 * match, receipt, admin API), orders of each kind, a refund, a tier, corrections and hot-wallet TON
 * batches; the report's sums equal the ledger's, and received - spent + refunds + adjustments is the
 * change of what the users are owed. The direct surface's own payments are not the service's cost.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  Accounts,
  Balances,
  CoreServices,
  OrderService,
  Payments,
  Reports,
  tashkentDay,
  TopupService
} from "@resale/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { PgStore } from "../src/PgStore.ts"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import { newUser } from "./contract/support.ts"

const Live = CoreServices.pipe(Layer.provideMerge(PgStore.layer.pipe(Layer.provideMerge(IsolatedPostgres.make(4)))))

const photo = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 77])
const DAY = 86_400_000

/** A hot-wallet batch (one signed message) and its payments, as the wallet records keep them. */
const walletBatch = (
  fee: bigint,
  payments: ReadonlyArray<{ key: string; kind: "stars" | "premium"; nano: bigint; state?: string }>
) =>
  SqlClient.use((sql) =>
    Effect.gen(function* () {
      const [batch] = yield* sql<{ id: string }>`
        INSERT INTO wallet_batches (network, wallet_address, state, seqno, external_hash, valid_until, prepared, payments, tx_hash, fee_nano, created_at, updated_at)
        VALUES ('sandbox', 'UQhot', 'executed', 1, ${"b".repeat(64)}, 0, '{}'::jsonb, ${payments.length}, 'batch-tx', ${fee}, now(), now())
        RETURNING id::text`
      for (const [i, p] of payments.entries()) {
        const paid = (p.state ?? "paid") === "paid"
        yield* sql`
          INSERT INTO wallet_payments (key, wallet_address, batch_id, position, kind, state, req_id, ref, pay_to, amount_nano, valid_until, tx_hash, created_at, updated_at)
          VALUES (${p.key}, 'UQhot', ${batch!.id}::bigint, ${i}, ${p.kind}, ${p.state ?? "paid"}, 'req', 'ref', 'EQfragment', ${p.nano}, 0, ${paid ? "tx" : null}, now(), now())`
      }
    })
  ).pipe(Effect.orDie)

/** A payment of the direct surface, from a caller's own wallet: not the service's cost. */
const directPurchase = SqlClient.use(
  (sql) =>
    sql`INSERT INTO direct_purchases (order_id, kind, state, fingerprint, network, wallet_address, wallet_version, recipient,
        units, pay_amount_nano, tx_hash, fee_nano, created_at, updated_at, completed_at)
      VALUES ('customer-own-1', 'stars', 'done', ${"a".repeat(64)}, 'sandbox', 'EQwallet', 'v5r1', 'durov',
        5000, 99000000000, 'txhash', 1, now(), now(), now())`
).pipe(Effect.orDie)

describe("reports (real PostgreSQL)", () => {
  it.effect(
    "the report's sums are the ledger's, and they reconcile with what users are owed",
    () =>
      Effect.gen(function* () {
        const topups = yield* TopupService
        const payments = yield* Payments
        const orders = yield* OrderService
        const balances = yield* Balances
        const sql = yield* SqlClient
        const [alice, bob] = yield* Effect.all([newUser(801, "alice_r"), newUser(802, "bob_r")])

        // Received: a bank match, a receipt an operator approved, an admin-API confirmation.
        const card = yield* topups.create(alice.id, 500_000)
        assert.strictEqual(
          (yield* payments.incoming({ amountUzs: card.payableUzs, externalId: "bank-r-1" })).outcome,
          "matched"
        )
        const receipt = yield* topups.createWithReceipt(bob.id, 300_000, photo)
        yield* topups.approve(receipt.id)
        const api = yield* topups.create(alice.id, 200_000)
        yield* topups.markPaid(api.id)
        // A transfer of a slightly different amount, assigned by an operator: bank money too.
        const late = yield* topups.create(bob.id, 100_000)
        const stray = yield* payments.incoming({ amountUzs: 99_000, externalId: "bank-r-2" })
        assert.strictEqual(stray.outcome, "unmatched")
        yield* payments.assign(stray.payment.id, late.id)

        // Spent: stars, premium (then failed and refunded), a gift, an info tier; and two corrections.
        const stars = yield* orders.create(alice.id, { kind: "stars", recipient: "durov", stars: 100 })
        const moreStars = yield* orders.create(alice.id, { kind: "stars", recipient: "durov", stars: 50 })
        const premium = yield* orders.create(bob.id, { kind: "premium", recipient: "durov", months: 3 })
        const gift = yield* orders.create(alice.id, {
          kind: "gift",
          recipient: "durov",
          gift: { id: "5170145012310081615", stars: 15 }
        })
        yield* orders.fail(premium.id, "marketplace refused")
        const tier = yield* (yield* Accounts).upgradeTier(alice.id, 1)
        yield* balances.adjust({ userId: bob.id, amount: 7_000, reason: "bank fee back", key: "r-adj-1" })
        yield* balances.adjust({ userId: alice.id, amount: -1_000, reason: "rounding", key: "r-adj-2" })

        // TON: one batch paying both star orders, one paying Premium; an open payment and a direct-surface purchase do not count.
        yield* walletBatch(10_000_000n, [
          { key: `hw-${stars.id}-0-a`, kind: "stars", nano: 1_500_000_000n },
          { key: `hw-${moreStars.id}-0-b`, kind: "stars", nano: 750_000_000n }
        ])
        yield* walletBatch(6_000_000n, [{ key: `hw-${premium.id}-0-c`, kind: "premium", nano: 9_000_000_000n }])
        yield* walletBatch(1n, [{ key: "hw-1000-0-d", kind: "stars", nano: 88_000_000_000n, state: "open" }])
        yield* directPurchase
        const today = tashkentDay(new Date())
        const yesterday = tashkentDay(new Date(Date.now() - DAY))
        const tomorrow = tashkentDay(new Date(Date.now() + DAY))
        const report = yield* (yield* Reports).build({
          period: "day",
          from: yesterday,
          to: tomorrow,
          tonRateUzs: 40_000
        })
        assert.deepStrictEqual(
          report.rows.map((r) => r.start),
          [yesterday, today, tomorrow]
        )
        const total = report.total

        assert.deepStrictEqual(total.received, {
          bank: card.payableUzs + 99_000,
          receipt: 300_000,
          adminApi: api.payableUzs,
          total: card.payableUzs + 99_000 + 300_000 + api.payableUzs
        })
        assert.deepStrictEqual(total.spent, {
          stars: stars.priceUzs + moreStars.priceUzs,
          premium: premium.priceUzs,
          gift: gift.priceUzs,
          tier: tier.chargedUzs,
          total: stars.priceUzs + moreStars.priceUzs + premium.priceUzs + gift.priceUzs + tier.chargedUzs
        })
        assert.deepStrictEqual(total.refunds, { stars: 0, premium: premium.priceUzs, gift: 0, total: premium.priceUzs })
        assert.strictEqual(total.adjustments, 6_000)

        // The ledger, read straight from the tables: the same sums, and the balances they add up to.
        const byCause = Object.fromEntries(
          (yield* sql<{
            cause: string
            sum: string
          }>`SELECT cause, sum(amount_uzs)::text AS sum FROM ledger_entries GROUP BY cause`).map((r) => [
            r.cause,
            Number(r.sum)
          ])
        )
        const [owed] = yield* sql<{ sum: string }>`SELECT sum(balance_uzs)::text AS sum FROM accounts`
        assert.strictEqual(total.received.total, byCause["topup"])
        assert.strictEqual(total.spent.total, -(byCause["order"] ?? 0) - (byCause["tier"] ?? 0))
        assert.strictEqual(total.refunds.total, byCause["refund"])
        assert.strictEqual(total.adjustments, byCause["adjust"])
        assert.strictEqual(total.outstandingStart, 0)
        assert.strictEqual(total.outstandingEnd, Number(owed!.sum))
        assert.strictEqual(
          total.received.total - total.spent.total + total.refunds.total + total.adjustments,
          total.outstandingEnd - total.outstandingStart
        )
        for (const row of report.rows) {
          assert.strictEqual(
            row.outstandingEnd - row.outstandingStart,
            row.received.total - row.spent.total + row.refunds.total + row.adjustments
          )
        }
        assert.strictEqual(report.rows[2]!.outstandingEnd, Number(owed!.sum))

        // TON with fees, the average per star, and the margin at 40,000 UZS per TON.
        assert.deepStrictEqual(total.ton.stars, {
          paidNano: 2_250_000_000n,
          feeNano: 10_000_000n,
          units: 150,
          purchases: 2
        })
        assert.deepStrictEqual(total.ton.premium, {
          paidNano: 9_000_000_000n,
          feeNano: 6_000_000n,
          units: 3,
          purchases: 1
        })
        assert.strictEqual(total.ton.totalNano, 11_266_000_000n)
        assert.strictEqual(total.nanoPerStar, 2_260_000_000n / 150n)
        const sales = stars.priceUzs + moreStars.priceUzs
        assert.deepStrictEqual(total.margin, { salesUzs: sales, costUzs: 450_640, marginUzs: sales - 450_640 })

        // Weeks and months cut the same money differently, never change it.
        for (const period of ["week", "month"] as const) {
          const other = (yield* (yield* Reports).build({ period, from: today, to: today, tonRateUzs: null })).total
          assert.deepStrictEqual(
            [other.received, other.spent, other.refunds, other.adjustments, other.outstandingEnd, other.margin],
            [total.received, total.spent, total.refunds, total.adjustments, total.outstandingEnd, null]
          )
        }
        // A request the core cannot answer is refused in words, not a database error.
        const refused = yield* Effect.flip(
          (yield* Reports).build({ period: "day", from: tomorrow, to: yesterday, tonRateUzs: null })
        )
        assert.strictEqual(refused._tag, "ReportRequestInvalid")
      }).pipe(Effect.provide(Live)),
    90_000
  )
})
