import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { DEFAULT_PRICES } from "../src/pricing/Prices.ts"
import { PricingService } from "../src/pricing/PricingService.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"

describe("PricingService", () => {
  it.effect("starts from the seeded defaults and replaces all four prices", () =>
    Effect.gen(function* () {
      const pricing = yield* PricingService
      assert.deepStrictEqual(yield* pricing.get, DEFAULT_PRICES)
      assert.deepStrictEqual(DEFAULT_PRICES, {
        starPriceUzs: 230,
        premium3MonthUzs: 170_000,
        premium6MonthUzs: 230_000,
        premium12MonthUzs: 410_000
      })
      const next = {
        starPriceUzs: 240,
        premium3MonthUzs: 175_000,
        premium6MonthUzs: 235_000,
        premium12MonthUzs: 420_000
      }
      yield* pricing.set(next)
      assert.deepStrictEqual(yield* pricing.get, next)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("refuses zero, negative and fractional prices and keeps the old ones", () =>
    Effect.gen(function* () {
      const pricing = yield* PricingService
      const base = {
        starPriceUzs: 240,
        premium3MonthUzs: 175_000,
        premium6MonthUzs: 235_000,
        premium12MonthUzs: 420_000
      }
      const errors = yield* Effect.all([
        Effect.flip(pricing.set({ ...base, starPriceUzs: 0 })),
        Effect.flip(pricing.set({ ...base, premium3MonthUzs: -1 })),
        Effect.flip(pricing.set({ ...base, premium6MonthUzs: 1.5 })),
        Effect.flip(pricing.set({ ...base, premium12MonthUzs: Number.POSITIVE_INFINITY }))
      ])
      assert.deepStrictEqual(
        errors.map((e) => e.field),
        ["starPriceUzs", "premium3MonthUzs", "premium6MonthUzs", "premium12MonthUzs"]
      )
      assert.deepStrictEqual(yield* pricing.get, DEFAULT_PRICES)
    }).pipe(Effect.provide(layerMemory))
  )
})
