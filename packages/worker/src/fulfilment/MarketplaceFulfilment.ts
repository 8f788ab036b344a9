import type { Order } from "@resale/core/orders/Order.ts"
import type { PurchaseOutcome } from "@resale/core/wallet/PurchaseOutcome.ts"
import { BatchedPurchases } from "@resale/core/wallet/BatchedPurchases.ts"
import { Context, Effect, Layer } from "effect"
import { HotWallet } from "./HotWallet.ts"
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
      return Unknown(purchase.message, purchase.ref ?? undefined, { txHash: purchase.txHash, chainState: purchase.state })
  }
}

/**
 * Stars and premium orders: bought from Fragment and paid from the hot wallet (resolved once, held by
 * `HotWallet`) through the core's `BatchedPurchases`, under one key per charge of the order: the
 * invoices of the orders this worker carries at once are paid together, one message of the wallet
 * per batch (`HOT_WALLET_BATCH`); a repeat of the key answers its stored payment (paid once, never
 * again), quotes again after a failed one (nothing was paid), and settles an open one on chain (its
 * batch's message, its `Ref#`) before anything else.
 */
export class MarketplaceFulfilment extends Context.Service<MarketplaceFulfilment, {
  readonly attempt: (order: Order) => Effect.Effect<Outcome>
}>()("worker/fulfilment/MarketplaceFulfilment") {
  static readonly layer = Layer.effect(
    MarketplaceFulfilment,
    Effect.gen(function*() {
      const purchases = yield* BatchedPurchases
      const hotWallet = yield* HotWallet

      const attempt = Effect.fn("MarketplaceFulfilment.attempt")(function*(order: Order) {
        const key = hotWallet.orderKey(order.id, order.chargeSeq)
        const { item } = order
        if (item.kind === "gift") return NotDelivered(false, "gifts are not bought from the marketplace")
        yield* hotWallet.ensureFunded
        const wallet = yield* hotWallet.wallet.pipe(Effect.result)
        // The hot wallet cannot be looked up (node down, not funded yet): nothing was paid, try later.
        if (wallet._tag === "Failure") return NotDelivered(true, `hot wallet: ${wallet.failure.reason}: ${wallet.failure.message}`)
        const purchase = item.kind === "stars"
          ? { key, username: order.recipient, kind: "stars" as const, units: item.stars }
          : { key, username: order.recipient, kind: "premium" as const, units: item.months }
        return outcomeOfPurchase(yield* purchases.buy(wallet.success, purchase))
      })

      return MarketplaceFulfilment.of({ attempt })
    })
  )
}
