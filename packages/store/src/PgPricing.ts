import { DEFAULT_PRICES, type Prices, Pricing } from "@resale/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { orDieSql, uzs } from "./SqlValues.ts"

interface PricesRow {
  readonly star_price_uzs: bigint
  readonly premium_3_month_uzs: bigint
  readonly premium_6_month_uzs: bigint
  readonly premium_12_month_uzs: bigint
}

const toPrices = (row: PricesRow): Prices => ({
  starPriceUzs: uzs(row.star_price_uzs),
  premium3MonthUzs: uzs(row.premium_3_month_uzs),
  premium6MonthUzs: uzs(row.premium_6_month_uzs),
  premium12MonthUzs: uzs(row.premium_12_month_uzs)
})

/** `Pricing` on the single-row `prices` table; no row yet means the core's `DEFAULT_PRICES`. */
export const PgPricing = {
  layer: Layer.effect(
    Pricing,
    Effect.gen(function*() {
      const sql = yield* SqlClient

      const get = Effect.gen(function*() {
        const [row] = yield* sql<PricesRow>`SELECT * FROM prices`
        return row === undefined ? DEFAULT_PRICES : toPrices(row)
      }).pipe(orDieSql, Effect.withSpan("Pricing.get"))

      const set = Effect.fn("Pricing.set")(function*(prices: Prices, now: Date) {
        const [row] = yield* sql<PricesRow>`
          INSERT INTO prices (singleton, star_price_uzs, premium_3_month_uzs, premium_6_month_uzs, premium_12_month_uzs, updated_at)
          VALUES (true, ${prices.starPriceUzs}, ${prices.premium3MonthUzs}, ${prices.premium6MonthUzs}, ${prices.premium12MonthUzs}, ${now})
          ON CONFLICT (singleton) DO UPDATE SET
            star_price_uzs = EXCLUDED.star_price_uzs,
            premium_3_month_uzs = EXCLUDED.premium_3_month_uzs,
            premium_6_month_uzs = EXCLUDED.premium_6_month_uzs,
            premium_12_month_uzs = EXCLUDED.premium_12_month_uzs,
            updated_at = EXCLUDED.updated_at
          RETURNING *`
        if (row === undefined) return yield* Effect.die(new Error("prices upsert returned no row"))
        return toPrices(row)
      }, orDieSql)

      return Pricing.of({ get, set })
    })
  )
} as const
