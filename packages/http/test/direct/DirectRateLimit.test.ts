/**
 * The direct endpoints are rate-limited per client address: 429 with a clear message and Retry-After,
 * buckets refill with time, a forged X-Forwarded-For buys nothing unless a trusted proxy is configured.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { RateLimiter } from "../../src/direct/RateLimiter.ts"
import { assertFailure, call, get, post } from "./support/client.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { newPhrase } from "./support/wallets.ts"

describe("RateLimiter", () => {
  it.effect("a burst, then one token per 60/perMinute seconds, per key", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter.make({ perMinute: 6, burst: 3 })
      const first = yield* Effect.forEach([1, 2, 3, 4], () => limiter.take("10.0.0.1"))
      assert.deepStrictEqual(first, [0, 0, 0, 10])
      assert.strictEqual(yield* limiter.take("10.0.0.2"), 0, "another address has its own bucket")
      yield* TestClock.adjust("9 seconds")
      assert.strictEqual(yield* limiter.take("10.0.0.1"), 1)
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* limiter.take("10.0.0.1"), 0)
      assert.strictEqual(yield* limiter.take("10.0.0.1"), 10)
    }))
})

layer(makeDirectTestEnv({ http: { rateLimit: { perMinute: 6, burst: 3 } } }), { timeout: "60 seconds", excludeTestServices: true })(
  "rate limit over HTTP",
  (it) => {
    it.effect("the fourth quick request from one address answers 429 RATE_LIMITED with Retry-After; /status stays open", () =>
      Effect.gen(function*() {
        const env = yield* DirectTestEnv
        const seed = yield* newPhrase("ton24") // valid but never funded: each request is a cheap WALLET_VM_ERROR
        for (let i = 0; i < 3; i++) assertFailure(yield* post(env, "/balance", { seed }), 400, "WALLET_VM_ERROR", seed)
        const limited = yield* post(env, "/stars/buy", { username: "someone", amount: 50, seed })
        assertFailure(limited, 429, "RATE_LIMITED", seed)
        assert.match(String(limited.body["message"]), /at most 6 per minute/)
        const retry = Number(limited.headers["retry-after"])
        assert.isTrue(retry >= 1 && retry <= 10, `Retry-After ${retry}`)
        // Without a trusted proxy, X-Forwarded-For does not make a new client.
        const forged = yield* call(env, "POST", "/coin/transfer", { seed }, { "x-forwarded-for": "203.0.113.9" })
        assertFailure(forged, 429, "RATE_LIMITED", seed)
        assert.strictEqual((yield* get(env, "/status")).status, 200)
      }), 30_000)
  }
)
