/**
 * Per-client-address limits of the direct surface and of the wallet page's posts (both with the
 * `DIRECT_RATE_*` settings). They are high by default (600 a minute): bots call from one server
 * address for all their customers, and the direct surface's CPU is protected by its derivation
 * gate, not by refusing callers. Two kinds:
 * - `make`: token buckets in memory (`perMinute` on average, `burst` at once), for one instance;
 * - `shared`: one count per address and minute in PostgreSQL, for several instances behind one name
 *   (`DIRECT_RATE_SHARED`, on by default with `DATABASE_URL`).
 */
import { Throttling } from "@resale/core/throttles/Throttling.ts"
import { Clock, Context, Effect } from "effect"

export interface RateLimit {
  readonly perMinute: number
  readonly burst: number
}

interface Bucket {
  tokens: number
  at: number
}

const MAX_KEYS = 50_000
const MINUTE = 60_000

export class RateLimiter extends Context.Service<
  RateLimiter,
  {
    readonly limit: RateLimit
    /** Takes a token for `key`: 0 when allowed, else the seconds until the next token. */
    readonly take: (key: string) => Effect.Effect<number>
  }
>()("webkit/RateLimiter") {
  static readonly make = (limit: RateLimit) =>
    Effect.sync(() => {
      const buckets = new Map<string, Bucket>()
      const perMs = limit.perMinute / MINUTE
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

  /**
   * `perMinute` per address and calendar minute, counted in PostgreSQL by every instance (the core's
   * `Throttling`): one upsert per request allowed. No burst: the minute's count is the limit. An
   * address this process alone has already seen over the limit this minute is refused from memory,
   * so a flood never becomes a flood of upserts on one row.
   */
  static readonly shared = (limit: RateLimit) =>
    Effect.map(Effect.service(Throttling), (throttling) => {
      const refused = new Map<string, number>()
      const take = (key: string) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const windowEnd = now - (now % MINUTE) + MINUTE
          if ((refused.get(key) ?? 0) === windowEnd)
            return Effect.succeed(Math.max(1, Math.ceil((windowEnd - now) / 1000)))
          return Effect.tap(throttling.request(key, limit.perMinute), (wait) =>
            Effect.sync(() => {
              if (wait === 0) return
              refused.delete(key)
              refused.set(key, windowEnd)
              if (refused.size > MAX_KEYS) refused.delete(refused.keys().next().value ?? "")
            })
          )
        })
      return RateLimiter.of({ limit, take })
    })

  /** `shared` when the counts are kept in PostgreSQL (`DIRECT_RATE_SHARED`), else `make`. */
  static readonly chosen = (limit: RateLimit, shared: boolean) =>
    shared ? RateLimiter.shared(limit) : RateLimiter.make(limit)
}

/**
 * The wallet page's own limiter (web's `gateway/WalletLimit.ts`): the direct surface's settings, a
 * budget of its own; the server gives it with the wallet road.
 */
export class WalletPageLimiter extends Context.Service<WalletPageLimiter, RateLimiter["Service"]>()(
  "webkit/WalletPageLimiter"
) {}
