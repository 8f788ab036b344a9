import { Schema } from "effect"
import { Uzs } from "../money/Uzs.ts"

/** A price: more than zero so'm. */
export const PositiveUzs = Uzs.check(Schema.isGreaterThan(0))

/** The four operator-set prices of the spec (`star_price_uzs`, `premium_*_month_uzs`). */
export const Prices = Schema.Struct({
  starPriceUzs: PositiveUzs,
  premium3MonthUzs: PositiveUzs,
  premium6MonthUzs: PositiveUzs,
  premium12MonthUzs: PositiveUzs
})
export type Prices = typeof Prices.Type

/** Seeded when no prices were ever set. */
export const DEFAULT_PRICES: Prices = {
  starPriceUzs: 230 as Uzs,
  premium3MonthUzs: 170_000 as Uzs,
  premium6MonthUzs: 230_000 as Uzs,
  premium12MonthUzs: 410_000 as Uzs
}

/** A price that is not a positive safe integer. */
export class PricesInvalid extends Schema.TaggedError<PricesInvalid>()("PricesInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

/** An order was quoted at a price list that is no longer the current one (nothing was written). */
export class PricesChanged extends Schema.TaggedError<PricesChanged>()("PricesChanged", {}) {}

/** Whether two price lists are the same four prices. */
export const samePrices = (a: Prices, b: Prices): boolean =>
  a.starPriceUzs === b.starPriceUzs &&
  a.premium3MonthUzs === b.premium3MonthUzs &&
  a.premium6MonthUzs === b.premium6MonthUzs &&
  a.premium12MonthUzs === b.premium12MonthUzs
