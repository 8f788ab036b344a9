/**
 * On real PostgreSQL: what the operator's status panel reads across the fleet. The last hour's
 * purchases per session, held sessions, the order queue with its oldest waiting order, batches in
 * flight, and worker beats: upserted, keeping the last hot-wallet read, forgotten after a day.
 */
import { assert, describe, it } from "@effect/vitest"
import { Nanoton } from "@resale/core/money/Nanoton.ts"
import { FleetStatus } from "@resale/core/ports/FleetStatus.ts"
import { MarketplaceSessions } from "@resale/core/ports/MarketplaceSessions.ts"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"

const now = new Date()
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000)
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000)
const run = <A, E>(body: Effect.Effect<A, E, FleetStatus | MarketplaceSessions | SqlClient>) =>
  body.pipe(Effect.provide(IsolatedPostgres.layerStore))

const wallet = (balance: bigint) => ({
  funded: true as const,
  version: "v5r1" as const,
  address: "UQhot",
  state: "active" as const,
  balance: Nanoton.make(balance),
  syncTime: 1_790_000_000
})

describe("fleet status (real PostgreSQL)", () => {
  it.effect(
    "sessions with their last hour, the queue's oldest waiting order, batches in flight",
    () =>
      run(
        Effect.gen(function* () {
          const fleet = yield* FleetStatus
          const sessions = yield* MarketplaceSessions
          const sql = yield* SqlClient
          for (const [session, req, outcome] of [
            ["alpha", "r1", "accepted"],
            ["alpha", "r2", "refused"],
            ["alpha", "r3", "refused"]
          ] as const) {
            assert.isTrue(yield* sessions.take(session, `q:${req}`, ago(5), ago(1)))
            yield* sessions.record({ reqId: req, session, ref: `Ref${req}`, payTo: "UQf", amount: Nanoton.make(1n) })
            yield* sessions.confirmed(req, outcome, null)
            yield* sessions.release(session, `q:${req}`)
          }
          assert.isTrue(yield* sessions.take("beta", "q:live", now, later(60)))
          // a purchase older than an hour is not counted
          yield* sql`UPDATE marketplace_purchases SET created_at = ${ago(7200)} WHERE req_id = 'r1'`

          const read = yield* fleet.sessions(now)
          assert.deepStrictEqual(
            read.map((s) => [s.session, s.accepted, s.refused, s.heldUntil !== null]),
            [
              ["alpha", 0, 2, false],
              ["beta", 0, 0, true]
            ]
          )
          assert.isNotNull(read[0]!.lastPurchaseAt)

          const [user] = yield* sql<{ id: string }>`
            INSERT INTO users (telegram_id, created_at, updated_at) VALUES (42, now(), now()) RETURNING id`
          const order = (status: string, created: Date) =>
            sql<{ id: string }>`
              INSERT INTO orders (user_id, recipient, kind, item, price_uzs, status, created_at, updated_at)
              VALUES (${user!.id}, 'someone', 'stars', '{"kind":"stars","stars":50}', 1000, ${status}, ${created}, ${created})
              RETURNING id`
          yield* order("completed", ago(900))
          const oldest = (yield* order("processing", ago(600)))[0]!
          yield* order("queued", ago(30))
          yield* order("needs_attention", ago(1000))
          const queue = yield* fleet.queue
          assert.deepStrictEqual([queue.queued, queue.processing, queue.needsAttention], [1, 1, 1])
          assert.strictEqual(queue.oldestWaiting?.orderId, Number(oldest.id))

          assert.strictEqual(yield* fleet.batchesInFlight, 0)
        })
      ),
    30_000
  )

  it.effect(
    "a beat is upserted per worker, keeps the last wallet read when it carries none, and old ones are forgotten",
    () =>
      run(
        Effect.gen(function* () {
          const fleet = yield* FleetStatus
          yield* fleet.beat(
            { worker: "gone:1", startedAt: ago(90_000), beatAt: ago(88_000), hotWallet: null },
            ago(99_000)
          )
          yield* fleet.beat(
            {
              worker: "w:2",
              startedAt: ago(60),
              beatAt: ago(50),
              hotWallet: { report: wallet(123_456_789_012n), readAt: ago(50) }
            },
            ago(86_400)
          )
          yield* fleet.beat({ worker: "w:2", startedAt: ago(60), beatAt: ago(5), hotWallet: null }, ago(86_400))
          const workers = yield* fleet.workers
          assert.deepStrictEqual(
            workers.map((w) => w.worker),
            ["w:2"],
            "the worker silent for more than a day is forgotten"
          )
          const w = workers[0]!
          assert.strictEqual(w.beatAt.getTime(), ago(5).getTime())
          assert.deepStrictEqual(w.hotWallet?.report, wallet(123_456_789_012n), "exact to the nanoton, kept")
          assert.strictEqual(w.hotWallet?.readAt.getTime(), ago(50).getTime())
        })
      ),
    30_000
  )
})
