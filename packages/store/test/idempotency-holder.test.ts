/**
 * An Idempotency-Key's claim lives in its holder's transaction (real PostgreSQL; the holder and the
 * others are separate stacks with their own pools, as separate processes are): while the holder's session lives, the key is in progress; when the session drops (its
 * process died), the key is free at once and the holder left nothing; a holder that committed left its
 * answer, which a retry replays instead of running the request again.
 */
import { assert, describe, it } from "@effect/vitest"
import { Balances, Idempotency, OrderService, type UserId, type Uzs } from "@resale/core"
import { IdempotencyKeys, Pricing } from "@resale/core/ports"
import { Deferred, Effect, Exit, Fiber, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { PgConnection } from "../src/PgConnection.ts"
import { PgStore } from "../src/PgStore.ts"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import { newUser, t0 } from "./contract/support.ts"

/** One process's services on the database: its own pool, so its own sessions. */
const processOn = (url: string) =>
  Layer.build(
    Layer.mergeAll(Idempotency.layer, Balances.layer, OrderService.layer).pipe(
      Layer.provideMerge(PgStore.layer.pipe(Layer.provideMerge(Layer.fresh(PgConnection.layerFromUrl(url, 3)))))
    )
  )

/** A fresh database and two processes on it: the holder of a key, and the one its client retries on. */
const twoProcesses = Effect.gen(function* () {
  const url = yield* IsolatedPostgres.database.pipe(Effect.orDie)
  return { holder: yield* processOn(url), other: yield* processOn(url) }
})

const Answer = Schema.Struct({ order_id: Schema.Number })

/** A user holding 1,000 so'm, stars at 2 so'm: an order of 50 stars costs 100. */
const buyer = (telegramId: number) =>
  Effect.gen(function* () {
    yield* Pricing.use((p) =>
      p.set(
        { starPriceUzs: 2 as Uzs, premium3MonthUzs: 1 as Uzs, premium6MonthUzs: 1 as Uzs, premium12MonthUzs: 1 as Uzs },
        t0
      )
    )
    const user = yield* newUser(telegramId)
    yield* Balances.use((b) => b.adjust({ userId: user.id, amount: 1000, reason: "test", key: `fund-${telegramId}` }))
    return user.id
  }).pipe(Effect.orDie)

/** The stars order behind an Idempotency-Key; `inside` runs in its transaction after the order is written. */
const buy = (userId: UserId, key: string, inside: Effect.Effect<void, never, SqlClient> = Effect.void) =>
  Idempotency.use((idem) =>
    idem.run(
      { scope: `user:${userId}`, endpoint: "orders.stars", key, requestHash: "same-body" },
      Answer,
      OrderService.use((o) => o.create(userId, { kind: "stars", recipient: "durov", stars: 50 })).pipe(
        Effect.tap(() => inside),
        Effect.map((order) => ({ order_id: order.id }))
      )
    )
  )

/** The session (backend pid) running the current transaction. */
const backendPid = Effect.gen(function* () {
  const sql = yield* SqlClient
  const [row] = yield* sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`
  return row!.pid
}).pipe(Effect.orDie)

/** Ends a session as a dead process's would end (its connection gone), waiting until it is gone. */
const dropSession = (pid: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* sql`SELECT pg_terminate_backend(${pid}, 5000)`
  }).pipe(Effect.orDie)

/** Orders and order charges of the user, and its balance. */
const booked = (userId: UserId) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const [row] = yield* sql<{ orders: bigint; charges: bigint; balance: bigint }>`
      SELECT (SELECT count(*) FROM orders WHERE user_id = ${userId}) AS orders,
        (SELECT count(*) FROM ledger_entries WHERE user_id = ${userId} AND cause = 'order') AS charges,
        (SELECT balance_uzs FROM accounts WHERE user_id = ${userId}) AS balance`
    return { orders: Number(row!.orders), charges: Number(row!.charges), balance: Number(row!.balance) }
  }).pipe(Effect.orDie)

describe("Idempotency-Key claims bound to the holder's session (real PostgreSQL)", () => {
  it.effect("a live holder blocks its key; a dropped session frees it at once and leaves no order", () =>
    Effect.gen(function* () {
      const { holder, other } = yield* twoProcesses
      const userId = yield* buyer(901).pipe(Effect.provide(other))
      const started = yield* Deferred.make<number>()
      const proceed = yield* Deferred.make<void>()
      // The holder wrote its order and charge and waits, its transaction open.
      const holding = yield* Effect.forkChild(
        buy(
          userId,
          "k-1",
          Effect.flatMap(backendPid, (pid) => Deferred.succeed(started, pid)).pipe(
            Effect.andThen(Deferred.await(proceed))
          )
        ).pipe(Effect.provide(holder))
      )
      const pid = yield* Deferred.await(started)

      yield* Effect.gen(function* () {
        // Live holder: every other session hears "in progress", at once (nobody waits on its row).
        assert.strictEqual((yield* Effect.flip(buy(userId, "k-1")))._tag, "IdempotencyKeyInProgress")
        const begun = yield* IdempotencyKeys.use((k) =>
          k.begin(`user:${userId}`, "k-1", "orders.stars", "same-body", t0)
        )
        assert.deepStrictEqual(begun, { _tag: "InProgress" })

        // Its process dies: the session drops and PostgreSQL rolls its transaction back.
        yield* dropSession(pid)
        const retriedAt = Date.now()
        const retried = yield* buy(userId, "k-1")
        assert.isBelow(Date.now() - retriedAt, 2000, "the retry ran at once")
        yield* Deferred.succeed(proceed, undefined)
        assert.isTrue(Exit.isFailure(yield* Fiber.await(holding)), "the holder's transaction did not commit")

        assert.deepStrictEqual(yield* booked(userId), { orders: 1, charges: 1, balance: 900 })
        // Exactly once from now on: the retry's answer is the key's answer.
        assert.deepStrictEqual(yield* buy(userId, "k-1"), retried)
        assert.deepStrictEqual(yield* booked(userId), { orders: 1, charges: 1, balance: 900 })
      }).pipe(Effect.provide(other))
    }).pipe(Effect.scoped)
  )

  it.effect("a holder that committed and then lost its session is replayed, never run again", () =>
    Effect.gen(function* () {
      const { holder, other } = yield* twoProcesses
      const userId = yield* buyer(902).pipe(Effect.provide(other))
      let pid = 0
      const first = yield* buy(
        userId,
        "k-2",
        Effect.map(backendPid, (p) => {
          pid = p
        })
      ).pipe(Effect.provide(holder))

      yield* Effect.gen(function* () {
        // Gone right after its COMMIT, before its answer could reach the client.
        yield* dropSession(pid)
        assert.deepStrictEqual(yield* buy(userId, "k-2"), first)
        assert.deepStrictEqual(yield* booked(userId), { orders: 1, charges: 1, balance: 900 })
        // Another body under the same key is still a conflict.
        const conflict = yield* Effect.flip(
          Idempotency.use((idem) =>
            idem.run(
              { scope: `user:${userId}`, endpoint: "orders.stars", key: "k-2", requestHash: "other-body" },
              Answer,
              Effect.succeed({ order_id: 0 })
            )
          )
        )
        assert.strictEqual(conflict._tag, "IdempotencyKeyConflict")
      }).pipe(Effect.provide(other))
    }).pipe(Effect.scoped)
  )
})
