/**
 * On real PostgreSQL: the payable amount of a card top-up that was closed without a bank payment stays
 * out of reach of new top-ups for the quarantine window; a bank-confirmed one is free at once.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  DEFAULT_TOPUP_SETTINGS,
  quarantineSince,
  type Topup,
  type TopupConfirmation,
  TopupService,
  TopupSettings,
  type TopupStatus,
  type UserId,
  type Uzs
} from "@resale/core"
import { Topups } from "@resale/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { TestClock } from "effect/testing"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import { at, minutes, newUser } from "./contract/support.ts"

const HOUR = minutes(60)

const open = (userId: UserId, requested: number, now: Date) =>
  Topups.use((t) =>
    t.insertPending({
      userId,
      requestedUzs: requested as Uzs,
      expiresAt: new Date(now.getTime() + minutes(15)),
      quarantineSince: quarantineSince(DEFAULT_TOPUP_SETTINGS, now),
      now
    })
  )

const close = (topup: Topup, to: TopupStatus, now: Date, confirmedBy?: TopupConfirmation) =>
  Topups.use((t) =>
    t.transition(
      topup.id,
      ["pending", "review"],
      to,
      confirmedBy === undefined ? {} : { confirmedBy, creditedUzs: topup.payableUzs },
      now
    )
  )

const run = <A, E, R>(body: Effect.Effect<A, E, R>) => body.pipe(Effect.provide(IsolatedPostgres.layerStore))

describe("payable amount quarantine (real PostgreSQL)", () => {
  it.effect(
    "cancelled, expired, rejected and operator-approved amounts are skipped for 24 h by others, then reused",
    () =>
      run(
        Effect.gen(function* () {
          const [a, b, c, d, user] = yield* Effect.all([newUser(11), newUser(12), newUser(13), newUser(14), newUser(1)])
          const cancelled = yield* open(a.id, 50_000, at(0))
          yield* close(cancelled, "cancelled", at(0))
          const expiring = yield* open(b.id, 50_000, at(0))
          assert.deepStrictEqual(
            (yield* Topups.use((t) => t.expireDue(at(minutes(15))))).map((t) => t.id),
            [expiring.id]
          )
          const rejected = yield* open(c.id, 50_000, at(minutes(16)))
          yield* close(rejected, "rejected", at(minutes(16)))
          const approved = yield* open(d.id, 50_000, at(minutes(17)))
          yield* close(approved, "paid", at(minutes(17)), "operator")
          const next = yield* open(user.id, 50_000, at(HOUR))
          assert.deepStrictEqual(
            [cancelled, expiring, rejected, approved, next].map((t) => t.payableUzs),
            [50_000, 50_001, 50_002, 50_003, 50_004]
          )
          yield* close(next, "cancelled", at(HOUR))
          const later = yield* newUser(15)
          // 23 h 59 min after the cancel the first amount is still quarantined
          assert.strictEqual((yield* open(later.id, 50_000, at(24 * HOUR - minutes(1)))).payableUzs, 50_005)
          // past 24 h after each one closed, the amounts come back in order, smallest first
          assert.strictEqual((yield* open(later.id, 50_000, at(24 * HOUR + 1))).payableUzs, 50_000)
          assert.strictEqual((yield* open(later.id, 50_000, at(24 * HOUR + minutes(15) + 1))).payableUzs, 50_001)
          assert.strictEqual((yield* open(later.id, 50_000, at(24 * HOUR + minutes(17) + 1))).payableUzs, 50_002)
        })
      ),
    60_000
  )

  it.effect(
    "an owner gets back its own cancelled, expired or rejected amount at once, never one an operator credited",
    () =>
      run(
        Effect.gen(function* () {
          const [owner, other] = yield* Effect.all([newUser(21), newUser(22)])
          const credited = yield* open(owner.id, 70_000, at(0))
          yield* close(credited, "paid", at(1), "operator")
          const cancelled = yield* open(owner.id, 70_000, at(2))
          yield* close(cancelled, "cancelled", at(3))
          assert.deepStrictEqual([credited.payableUzs, cancelled.payableUzs], [70_000, 70_001])
          // Others skip both; the owner skips the credited one and takes its own cancelled one first.
          assert.strictEqual((yield* open(other.id, 70_000, at(4))).payableUzs, 70_002)
          assert.strictEqual((yield* open(owner.id, 70_000, at(5))).payableUzs, 70_001)
        })
      ),
    60_000
  )

  it.effect(
    "a top-up confirmed by a bank payment frees its amount at once",
    () =>
      run(
        Effect.gen(function* () {
          const alice = yield* newUser(2)
          const bob = yield* newUser(3)
          const a = yield* open(alice.id, 40_000, at(0))
          yield* close(a, "paid", at(1), "payment")
          const b = yield* open(bob.id, 40_000, at(2))
          assert.deepStrictEqual([a.payableUzs, b.payableUzs], [40_000, 40_000])
        })
      ),
    60_000
  )

  it.effect(
    "the window comes from TopupSettings",
    () =>
      Effect.gen(function* () {
        // Given to the service's layer, as a composition root gives it; the store gets it from the service.
        const topups = yield* TopupService
        const [user, other, third] = yield* Effect.all([newUser(4), newUser(41), newUser(42)])
        const a = yield* topups.create(user.id, 20_000)
        yield* topups.cancel(user.id, a.id)
        yield* TestClock.adjust(minutes(1) - 1)
        const b = yield* topups.create(other.id, 20_000)
        yield* topups.cancel(other.id, b.id)
        // a closed exactly one window ago: free again; b (closed 1 ms ago) is still quarantined
        yield* TestClock.adjust(1)
        const c = yield* topups.create(third.id, 20_000)
        assert.deepStrictEqual([a.payableUzs, b.payableUzs, c.payableUzs], [20_000, 20_001, 20_000])
      }).pipe(
        Effect.provide(
          TopupService.layer.pipe(
            Layer.provide(
              Layer.succeed(TopupSettings)({
                minUzs: 1_000,
                maxUzs: 100_000_000,
                ttlMs: 60_000,
                receiptMaxBytes: 100,
                payableQuarantineMs: minutes(1)
              })
            ),
            Layer.provideMerge(IsolatedPostgres.layerStore)
          )
        )
      ),
    60_000
  )

  it.effect(
    "fails TopupPayableExhausted when every offset is open or quarantined; the lookup uses the new index",
    () =>
      run(
        Effect.gen(function* () {
          const [user, squatter] = yield* Effect.all([newUser(5), newUser(51)])
          const sql = yield* SqlClient
          // 500 cancelled and 500 pending card top-ups of another account cover 10000..10999
          yield* sql`
        INSERT INTO topups (user_id, method, requested_uzs, payable_uzs, status, expires_at, created_at, updated_at)
        SELECT ${squatter.id}, 'card', 10000, 10000 + o, CASE WHEN o % 2 = 0 THEN 'cancelled' ELSE 'pending' END,
               ${at(HOUR)}, ${at(0)}, ${at(0)}
        FROM generate_series(0, 999) AS o`
          const error = yield* Effect.flip(open(user.id, 10_000, at(minutes(1))))
          assert.strictEqual(error._tag, "TopupPayableExhausted")
          assert.strictEqual((yield* open(user.id, 10_000, at(24 * HOUR + 1))).payableUzs, 10_000)
          const plan = yield* sql<{ "QUERY PLAN": string }>`
        EXPLAIN SELECT 1 FROM topups t
        WHERE t.method = 'card' AND t.status IN ('paid', 'cancelled', 'rejected', 'expired')
          AND t.payable_uzs = 10002 AND t.confirmed_by IS DISTINCT FROM 'payment'
          AND (t.updated_at > ${at(0)} OR t.created_at > ${at(0)})`
          const text = plan.map((r) => r["QUERY PLAN"]).join("\n")
          assert.include(text, "topups_closed_card_payable_idx")
          // The one read of what is taken (PgTopups.insertPending) scans both partial indexes by range.
          const taken = yield* sql<{ "QUERY PLAN": string }>`
        EXPLAIN SELECT payable_uzs FROM topups
        WHERE (status = 'pending' OR (status = 'review' AND method = 'card')) AND payable_uzs BETWEEN 10000 AND 10999
        UNION ALL
        SELECT payable_uzs FROM topups
        WHERE method = 'card' AND status IN ('paid', 'cancelled', 'rejected', 'expired')
          AND confirmed_by IS DISTINCT FROM 'payment' AND payable_uzs BETWEEN 10000 AND 10999
          AND (updated_at > ${at(0)} OR created_at > ${at(0)})`
          const takenPlan = taken.map((r) => r["QUERY PLAN"]).join("\n")
          assert.include(takenPlan, "topups_open_payable_key")
          assert.include(takenPlan, "topups_closed_card_payable_idx")
        })
      ),
    60_000
  )
})
