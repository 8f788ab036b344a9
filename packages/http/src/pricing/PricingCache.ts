import type { Prices } from "@resale/core"
import { PricingService } from "@resale/core/pricing/PricingService.ts"
import { Context, Effect, Layer } from "effect"

/**
 * The public price list, read from the database at most once a second per instance and dropped
 * when an operator changes it here. Display only: orders always quote fresh prices in the core.
 */
export class PricingCache extends Context.Service<PricingCache, {
  readonly get: Effect.Effect<Prices>
  readonly invalidate: Effect.Effect<void>
}>()("http/pricing/PricingCache") {
  static readonly layer = Layer.effect(
    PricingCache,
    Effect.gen(function*() {
      const pricing = yield* PricingService
      const [get, invalidate] = yield* Effect.cachedInvalidateWithTTL(pricing.get, "1 second")
      return PricingCache.of({ get, invalidate })
    })
  )
}
