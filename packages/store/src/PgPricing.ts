import { DEFAULT_PRICES, PositiveUzs, type Prices } from "@resale/core"
import { Pricing } from "@resale/core/ports"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { intAs, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** The `prices` row, decoded into the core's `Prices`. */
const priceRows = rowDecoder(
  "prices",
  Schema.Struct({
    starPriceUzs: intAs(PositiveUzs),
    premium3MonthUzs: intAs(PositiveUzs),
    premium6MonthUzs: intAs(PositiveUzs),
    premium12MonthUzs: intAs(PositiveUzs)
  }).pipe(
    Schema.encodeKeys({
      starPriceUzs: "star_price_uzs",
      premium3MonthUzs: "premium_3_month_uzs",
      premium6MonthUzs: "premium_6_month_uzs",
      premium12MonthUzs: "premium_12_month_uzs"
    })
  )
)

/** `Pricing` on the single-row `prices` table; no row yet means the core's `DEFAULT_PRICES`. */
export const PgPricing = {
  layer: Layer.effect(
    Pricing,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const get = Effect.gen(function* () {
        const row = yield* priceRows.first(yield* sql`SELECT * FROM prices`)
        return Option.getOrElse(row, (): Prices => DEFAULT_PRICES)
      }).pipe(orDieSql, Effect.withSpan("Pricing.get"))

      const set = Effect.fn("Pricing.set")(function* (prices: Prices, now: Date) {
        return yield* priceRows.one(
          yield* sql`
          INSERT INTO prices (singleton, star_price_uzs, premium_3_month_uzs, premium_6_month_uzs, premium_12_month_uzs, updated_at)
          VALUES (true, ${prices.starPriceUzs}, ${prices.premium3MonthUzs}, ${prices.premium6MonthUzs}, ${prices.premium12MonthUzs}, ${now})
          ON CONFLICT (singleton) DO UPDATE SET
            star_price_uzs = EXCLUDED.star_price_uzs,
            premium_3_month_uzs = EXCLUDED.premium_3_month_uzs,
            premium_6_month_uzs = EXCLUDED.premium_6_month_uzs,
            premium_12_month_uzs = EXCLUDED.premium_12_month_uzs,
            updated_at = EXCLUDED.updated_at
          RETURNING *`
        )
      }, orDieSql)

      return Pricing.of({ get, set })
    })
  )
} as const
