import type { Order } from "@resale/core/orders/Order.ts"
import type { PurchaseOutcome } from "@resale/core/wallet/PurchaseOutcome.ts"
import { HotWalletPurchases } from "@resale/core/wallet/HotWalletPurchases.ts"
import { Context, Effect, Layer } from "effect"
import { Busy, deliveredByReceipt, NotDelivered, type Outcome, Unknown } from "./Outcome.ts"

/** What a hot-wallet purchase's outcome means for an account order. */
export const outcomeOfPurchase = (purchase: PurchaseOutcome): Outcome => {
  switch (purchase._tag) {
    case "Delivered":
      return deliveredByReceipt(purchase)
    case "NotPaid":
      return NotDelivered(purchase.retryable, purchase.message)
    case "InFlight":
      return Busy(purchase.message)
    case "PaidUnconfirmed":
      return Unknown(purchase.message, purchase.ref ?? undefined, {
        txHash: purchase.txHash,
        chainState: purchase.state
      })
  }
}

/**
 * Stars and premium orders: bought from Fragment and paid from the hot wallet by the core's
 * `HotWalletPurchases` (one key per charge of the order, batched payments, exactly once); this maps
 * its typed outcome to what the order does next.
 */
export class MarketplaceFulfilment extends Context.Service<
  MarketplaceFulfilment,
  {
    readonly attempt: (order: Order) => Effect.Effect<Outcome>
  }
>()("worker/fulfilment/MarketplaceFulfilment") {
  static readonly layer = Layer.effect(
    MarketplaceFulfilment,
    Effect.gen(function* () {
      const purchases = yield* HotWalletPurchases
      const attempt = (order: Order) => Effect.map(purchases.buy(order), outcomeOfPurchase)
      return MarketplaceFulfilment.of({ attempt })
    })
  )
}
