/**
 * Limits of the direct surface: per-address token buckets (429 with Retry-After, refilled with time,
 * a forged X-Forwarded-For buys nothing), the same limit counted in PostgreSQL across instances, and
 * the derivation gate that bounds key derivations (a queue, 503 SERVICE_BUSY only when it is full).
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { IsolatedPostgres } from "@resale/store/testing/index.ts"
import { Throttling } from "@resale/core/throttles/Throttling.ts"
import { PgThrottles } from "@resale/store/PgThrottles.ts"
import { Deferred, Effect, Fiber, Layer, Metric } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { TestClock } from "effect/testing"
import { derivationQueue, makeGate } from "../../src/direct/DerivationGate.ts"
import { RateLimiter } from "@resale/webkit/RateLimiter.ts"
import { assertFailure, call, get, post } from "./support/client.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { newPhrase } from "./support/wallets.ts"

describe("RateLimiter and the derivation gate", () => {
  it.effect("a burst, then one token per 60/perMinute seconds, per key", () =>
    Effect.gen(function* () {
      const limiter = yield* RateLimiter.make({ perMinute: 6, burst: 3 })
      const first = yield* Effect.forEach([1, 2, 3, 4], () => limiter.take("10.0.0.1"))
      assert.deepStrictEqual(first, [0, 0, 0, 10])
      assert.strictEqual(yield* limiter.take("10.0.0.2"), 0, "another address has its own bucket")
      yield* TestClock.adjust("9 seconds")
      assert.strictEqual(yield* limiter.take("10.0.0.1"), 1)
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* limiter.take("10.0.0.1"), 0)
      assert.strictEqual(yield* limiter.take("10.0.0.1"), 10)
    })
  )

  it.effect("the gate runs `permits` at once, queues the next ones, refuses only a full queue or a long wait", () =>
    Effect.gen(function* () {
      const gate = yield* makeGate({ permits: 1, queue: 1, maxWait: "2 seconds" })
      const hold = yield* Deferred.make<void>()
      const first = yield* Effect.forkChild(gate.run(Deferred.await(hold)))
      yield* Effect.yieldNow
      const second = yield* Effect.forkChild(gate.run(Effect.succeed("second ran")))
      yield* Effect.yieldNow
      assert.strictEqual(gate.waiting(), 1)
      assert.strictEqual((yield* Metric.value(derivationQueue)).value, 1, "the queue shows in /metrics")
      const third = yield* Effect.flip(gate.run(Effect.succeed("never")))
      assert.strictEqual(third.reason, "Overloaded")
      yield* Deferred.succeed(hold, undefined)
      yield* Fiber.join(first)
      assert.strictEqual(yield* Fiber.join(second), "second ran")
      // A turn that does not come within maxWait is refused too.
      const blocker = yield* Deferred.make<void>()
      const busy = yield* Effect.forkChild(gate.run(Deferred.await(blocker)))
      yield* Effect.yieldNow
      const waiter = yield* Effect.forkChild(Effect.flip(gate.run(Effect.succeed("late"))))
      yield* Effect.yieldNow
      yield* TestClock.adjust("2 seconds")
      assert.strictEqual((yield* Fiber.join(waiter)).reason, "Overloaded")
      yield* Deferred.succeed(blocker, undefined)
      yield* Fiber.join(busy)
      assert.strictEqual(gate.waiting(), 0)
    })
  )
})

layer(IsolatedPostgres.layer, { timeout: "60 seconds", excludeTestServices: true })("shared rate limit", (it) => {
  it.effect("two instances count in one PostgreSQL window: the limit holds for the pair, per address", () =>
    Effect.gen(function* () {
      // Each instance with its own use case over the one database, as two servers would be.
      const instance = RateLimiter.shared({ perMinute: 5, burst: 5 }).pipe(
        Effect.provide(Layer.fresh(Throttling.layer.pipe(Layer.provide(PgThrottles.layer))))
      )
      const a = yield* instance
      const b = yield* instance
      const sql = yield* SqlClient
      const waits = yield* Effect.forEach([a, b, a, b, a], (limiter) => limiter.take("198.51.100.7"))
      assert.deepStrictEqual(waits, [0, 0, 0, 0, 0])
      const sixth = yield* b.take("198.51.100.7")
      assert.isTrue(sixth >= 1 && sixth <= 60, `retry after ${sixth}`)
      // Refused again from memory by the instance that saw the refusal: the row is not touched.
      const hits = Effect.map(
        sql<{ hits: number }>`SELECT hits FROM direct_rate_windows WHERE client = '198.51.100.7'`,
        ([row]) => Number(row?.hits)
      )
      for (let i = 0; i < 3; i++) assert.isAtLeast(yield* b.take("198.51.100.7"), 1)
      assert.strictEqual(yield* hits, 6)
      assert.isAtLeast(yield* a.take("198.51.100.7"), 1, "the other instance asks the database")
      assert.strictEqual(yield* hits, 7)
      assert.strictEqual(yield* a.take("198.51.100.8"), 0, "another address has its own count")
      // The next minute is a new window.
      yield* TestClock.adjust("1 minute")
      assert.strictEqual(yield* b.take("198.51.100.7"), 0)
    }).pipe(Effect.provide(TestClock.layer()))
  )
})

layer(makeDirectTestEnv({ http: { rateLimit: { perMinute: 6, burst: 3 } } }), {
  timeout: "60 seconds",
  excludeTestServices: true
})("rate limit over HTTP", (it) => {
  it.effect(
    "the fourth quick request from one address answers 429 RATE_LIMITED with Retry-After; /status stays open",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const seed = yield* newPhrase("ton24")
        // Cheap requests (a field missing): the limit counts requests, whatever they ask.
        for (let i = 0; i < 3; i++)
          assertFailure(yield* post(env, "/stars/buy", { amount: 50, seed }), 400, "VALIDATION_ERROR", seed)
        const limited = yield* post(env, "/stars/buy", { username: "someone", amount: 50, seed })
        assertFailure(limited, 429, "RATE_LIMITED", seed)
        assert.match(String(limited.body["message"]), /at most 6 per minute/)
        const retry = Number(limited.headers["retry-after"])
        assert.isTrue(retry >= 1 && retry <= 10, `Retry-After ${retry}`)
        // Without a trusted proxy, X-Forwarded-For does not make a new client.
        const forged = yield* call(env, "POST", "/coin/transfer", { seed }, { "x-forwarded-for": "203.0.113.9" })
        assertFailure(forged, 429, "RATE_LIMITED", seed)
        assert.strictEqual((yield* get(env, "/status")).status, 200)
      }),
    30_000
  )
})
