import type { Prices } from "@resale/core"
import { PricingService } from "@resale/core/pricing/PricingService.ts"
import { Context, Effect, Layer } from "effect"

/**
 * How old a price list this server answers may be: a price changed through another server (each
 * server caches its own) is what this one answers at most this long after the change, plus the time
 * of one database read that was running when the change was made. Stated in docs/scaling.md and
 * checked with two servers by test/http/shared-limits.test.ts.
 */
export const PRICES_STALE_MS = 1000
const TTL_MS = PRICES_STALE_MS

/**
 * The public price list, read from the database at most once a second per instance and dropped
 * when an operator changes it here (other instances: within `PRICES_STALE_MS`). Display only:
 * orders always quote fresh prices in the core.
 */
export class PricingCache extends Context.Service<
  PricingCache,
  {
    readonly get: Effect.Effect<Prices>
    readonly invalidate: Effect.Effect<void>
    /**
     * The price list `get` would answer now without reading the database, if it is still within its
     * second; `undefined` otherwise (then `get` reads it). For answers given outside an effect.
     */
    readonly current: () => Prices | undefined
  }
>()("webkit/PricingCache") {
  static readonly layer = Layer.effect(
    PricingCache,
    Effect.gen(function* () {
      const pricing = yield* PricingService
      // The list and when it was read: it is what the cache holds while younger than its TTL.
      let latest: { readonly prices: Prices; readonly at: number } | undefined
      const read = Effect.tap(pricing.get, (prices) => Effect.sync(() => (latest = { prices, at: Date.now() })))
      const [get, invalidateCached] = yield* Effect.cachedInvalidateWithTTL(read, `${TTL_MS} millis`)
      const invalidate = Effect.andThen(
        Effect.sync(() => (latest = undefined)),
        invalidateCached
      )
      const current = () => (latest !== undefined && Date.now() - latest.at < TTL_MS ? latest.prices : undefined)
      return PricingCache.of({ get, invalidate, current })
    })
  )
}
