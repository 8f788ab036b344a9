/**
 * Placing an account order: the quote at the current prices, and the order with its charge written
 * as one atomic write of the store, priced at the list the latest order was charged at.
 */
import { Effect } from "effect"
import type { UserId } from "../ids.ts"
import type { InsufficientBalance } from "../ledger/LedgerErrors.ts"
import { type ChargedOrder, Orders } from "../ports/Orders.ts"
import { Pricing } from "../ports/Pricing.ts"
import type { Prices } from "../pricing/Prices.ts"
import { currentDate } from "../Time.ts"
import { newOrderCharge } from "./OrderCharges.ts"
import { type OrderRequest, priceOf, validateOrder } from "./OrderRules.ts"

/** Builds `OrderService`'s `quote`, `place` and `create`. */
export const makeOrderPlacing = Effect.gen(function* () {
  const orders = yield* Orders
  const pricing = yield* Pricing

  const quote = Effect.fn("OrderService.quote")(function* (request: OrderRequest) {
    const checked = validateOrder(request)
    if ("_tag" in checked) return yield* checked
    const prices = yield* pricing.get
    return { ...checked, priceUzs: priceOf(checked.item, prices) }
  })

  // The quote only reads; the order and its charge are one atomic write of the store
  // (`insertCharged`), so no transaction holds the account's lock across a COMMIT round trip.
  // Inside a caller's transaction (an Idempotency-Key's) it joins that one as before.
  // The price list the latest order was charged at. An order is priced at it without reading the
  // prices again: `insertCharged` charges only while it is still the current list (checked in its
  // one write), and when an operator changed it the order is priced again at the list read afresh.
  // So every order is charged at the prices current when it is charged, as when they were read first.
  let latestPrices: Prices | undefined
  const freshPrices = Effect.tap(pricing.get, (prices) => Effect.sync(() => (latestPrices = prices)))

  const place = Effect.fn("OrderService.place")(function* (userId: UserId, request: OrderRequest) {
    const now = yield* currentDate
    const checked = validateOrder(request)
    if ("_tag" in checked) return yield* checked
    const { item, recipient } = checked
    // Changed since: priced again at the list read now (a change in between is caught the same way).
    const chargeAt = (prices: Prices, retries: number): Effect.Effect<ChargedOrder, InsufficientBalance> => {
      const order = { userId, recipient, item, priceUzs: priceOf(item, prices) }
      return orders
        .insertCharged(order, newOrderCharge(order, prices), now)
        .pipe(
          Effect.catchTag("PricesChanged", () =>
            retries === 0
              ? Effect.die(new Error("the prices changed at every attempt to charge an order"))
              : Effect.flatMap(freshPrices, (fresh) => chargeAt(fresh, retries - 1))
          )
        )
    }
    return yield* chargeAt(latestPrices ?? (yield* freshPrices), 3)
  })

  const create = (userId: UserId, request: OrderRequest) => Effect.map(place(userId, request), (placed) => placed.order)

  return { quote, place, create }
})
