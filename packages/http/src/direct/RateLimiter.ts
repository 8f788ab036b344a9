/**
 * Per-client-address token buckets for the direct surface: `perMinute` requests a minute on average,
 * `burst` at once. Each key derivation costs ~0.1 s of CPU, so the limit protects the service as
 * much as it slows down guessing. In memory, per process: a limit, not a money rule.
 */
import { Clock, Context, Effect, Layer } from "effect"

export interface RateLimit {
  readonly perMinute: number
  readonly burst: number
}

interface Bucket {
  tokens: number
  at: number
}

const MAX_KEYS = 50_000

export class RateLimiter extends Context.Service<RateLimiter, {
  readonly limit: RateLimit
  /** Takes a token for `key`: 0 when allowed, else the seconds until the next token. */
  readonly take: (key: string) => Effect.Effect<number>
}>()("http/direct/RateLimiter") {
  static readonly make = (limit: RateLimit) =>
    Effect.sync(() => {
      const buckets = new Map<string, Bucket>()
      const perMs = limit.perMinute / 60_000
      const take = (key: string) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const bucket = buckets.get(key) ?? { tokens: limit.burst, at: now }
          bucket.tokens = Math.min(limit.burst, bucket.tokens + (now - bucket.at) * perMs)
          bucket.at = now
          // Re-insert so the map stays in least-recently-used order for pruning.
          buckets.delete(key)
          buckets.set(key, bucket)
          if (buckets.size > MAX_KEYS) buckets.delete(buckets.keys().next().value ?? "")
          if (bucket.tokens >= 1) {
            bucket.tokens -= 1
            return 0
          }
          return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000))
        })
      return RateLimiter.of({ limit, take })
    })

  static readonly layer = (limit: RateLimit) => Layer.effect(RateLimiter, RateLimiter.make(limit))
}
