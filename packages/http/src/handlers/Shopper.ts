import { Balances } from "@resale/core/ledger/Balances.ts"
import { clampPage } from "@resale/core/Page.ts"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { historyPageOut } from "@resale/wire/Dtos.ts"
import { Api } from "../api/Api.ts"
import { CurrentUser } from "../api/Middleware.ts"
import { placePremium, placeStars } from "./PlaceOrder.ts"

/** The web shopper's purchases from the dashboard's forms and their balance history. */
export const ShopperHandlers = HttpApiBuilder.group(Api, "shopper", (handlers) =>
  Effect.gen(function* () {
    const balances = yield* Balances
    return handlers
      .handle("buyStars", ({ headers, payload }) => placeStars("POST /v2/orders/stars", headers, payload))
      .handle("buyPremium", ({ headers, payload }) => placePremium("POST /v2/orders/premium", headers, payload))
      .handle("balanceHistory", ({ query }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const page = clampPage({ offset: query.offset, limit: query.limit })
          return historyPageOut(yield* balances.entries(userId, page), page)
        })
      )
  })
)
