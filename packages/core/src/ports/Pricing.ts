import { Context, type Effect } from "effect"
import type { Prices } from "../pricing/Prices.ts"

/** The operator-set prices: one current row, seeded with `DEFAULT_PRICES`. */
export class Pricing extends Context.Service<
  Pricing,
  {
    /** Current prices; `DEFAULT_PRICES` when never set. */
    readonly get: Effect.Effect<Prices>
    /** Replaces all four prices at once (values are validated by the use case). */
    readonly set: (prices: Prices, now: Date) => Effect.Effect<Prices>
  }
>()("core/ports/Pricing") {}
