import { Context, Effect, Layer } from "effect"
import { Pricing } from "../ports/Pricing.ts"
import { currentDate } from "../Time.ts"
import { type Prices, PricesInvalid } from "./Prices.ts"

/** Prices as operators enter them: plain numbers, checked here. */
export interface PricesInput {
  readonly starPriceUzs: number
  readonly premium3MonthUzs: number
  readonly premium6MonthUzs: number
  readonly premium12MonthUzs: number
}

/** The four operator-set prices. */
export class PricingService extends Context.Service<
  PricingService,
  {
    readonly get: Effect.Effect<Prices>
    /** Replaces all four prices; each must be a positive whole number of so'm. */
    readonly set: (input: PricesInput) => Effect.Effect<Prices, PricesInvalid>
  }
>()("core/pricing/PricingService") {
  static readonly layer = Layer.effect(
    PricingService,
    Effect.gen(function* () {
      const pricing = yield* Pricing

      const set = Effect.fn("PricingService.set")(function* (input: PricesInput) {
        for (const field of ["starPriceUzs", "premium3MonthUzs", "premium6MonthUzs", "premium12MonthUzs"] as const) {
          const value = input[field]
          if (!Number.isSafeInteger(value) || value <= 0) {
            return yield* new PricesInvalid({ field, message: `${field} must be a positive whole number of so'm` })
          }
        }
        return yield* pricing.set(input as Prices, yield* currentDate)
      })

      return PricingService.of({ get: pricing.get.pipe(Effect.withSpan("PricingService.get")), set })
    })
  )
}
