import { DirectPurchaseError } from "@resale/core/direct/DirectPurchaseError.ts"
import { DirectPurchases } from "@resale/core/direct/DirectPurchases.ts"
import type { Order } from "@resale/core/orders/Order.ts"
import { isTransientReason } from "@resale/core/ports/Marketplace.ts"
import { Array, Context, Effect, Layer, Option, Semaphore } from "effect"
import { HotWallet } from "./HotWallet.ts"
import { Busy, deliveredByReceipt, NotDelivered, type Outcome, Unknown } from "./Outcome.ts"

/** What a direct-purchase failure means for an account order. */
export const outcomeOfDirectError = (error: DirectPurchaseError): Outcome => {
  const text = `${error.reason}${error.marketplaceReason === undefined ? "" : ` (${error.marketplaceReason})`}: ${error.message}`
  if (error.outcome === "Paid" || error.outcome === "Unknown") return Unknown(text)
  switch (error.reason) {
    case "OrderPending":
    case "ServiceBusy":
      return Busy(text)
    case "OrderIdReused":
      // Only a finished (paid) record answers this: never pay again, an operator looks at it.
      return Unknown(text)
    case "MarketplaceRejected":
      // A Fragment outage (5xx, rate limit, malformed answer, anti-bot block) passes: retry; a refusal does not.
      return NotDelivered(error.marketplaceReason !== undefined && isTransientReason(error.marketplaceReason), text)
    case "InvalidRequest":
    case "AmountBelowMinimum":
    case "AmountAboveMaximum":
      return NotDelivered(false, text)
    case "WalletInvalid":
    case "InsufficientFunds":
    case "MarketplaceTimeout":
    case "TransferFailed":
      // Nothing was paid; the hot wallet or the network may be fine again later.
      return NotDelivered(true, text)
  }
}

/**
 * Stars and premium orders: bought from Fragment and paid from the hot wallet through the same
 * exactly-once code as the direct surface (`DirectPurchases`), under one direct order id per charge
 * of the order. A repeat of that id returns the stored receipt (paid once, never again), runs a
 * failed one again (nothing was paid), and reconciles an open one on chain by its stored message
 * and `Ref#` before anything else. Payments of one worker go one at a time (one wallet, one seqno).
 */
export class MarketplaceFulfilment extends Context.Service<MarketplaceFulfilment, {
  readonly attempt: (order: Order) => Effect.Effect<Outcome>
}>()("worker/fulfilment/MarketplaceFulfilment") {
  static readonly layer = Layer.effect(
    MarketplaceFulfilment,
    Effect.gen(function*() {
      const direct = yield* DirectPurchases
      const hotWallet = yield* HotWallet
      const oneAtATime = yield* Semaphore.make(1)

      const buy = (order: Order, orderId: string) => {
        const common = { seed: hotWallet.phrase, orderId, walletVersion: undefined }
        switch (order.item.kind) {
          case "stars":
            return direct.buyStars({ ...common, username: order.recipient, quantity: order.item.stars })
          case "premium":
            return direct.buyPremium({ ...common, username: order.recipient, months: order.item.months })
          case "gift":
            return Effect.fail(new DirectPurchaseError({ reason: "InvalidRequest", message: "gifts are not bought from the marketplace" }))
        }
      }

      const attempt = Effect.fn("MarketplaceFulfilment.attempt")(function*(order: Order) {
        const orderId = hotWallet.orderKey(order.id, order.chargeSeq)
        yield* hotWallet.ensureFunded
        const result = yield* oneAtATime.withPermit(Effect.result(buy(order, orderId)))
        if (result._tag === "Success") return deliveredByReceipt(result.success)
        const outcome = outcomeOfDirectError(result.failure)
        if (outcome._tag !== "Busy" && outcome._tag !== "Unknown") return outcome
        // The stored record tells an open payment (reconcile later, keep its Ref#) from one in flight elsewhere.
        // The hot wallet's ids are keyed by its phrase (HotWallet.orderKey): the newest record is its own.
        const record = Array.head(yield* direct.findByOrderId(orderId))
        if (Option.isNone(record)) return outcome
        const ref = record.value.ref ?? undefined
        const found = { txHash: record.value.txHash, chainState: record.value.state }
        if (outcome._tag === "Unknown") return Unknown(outcome.error, ref, found)
        return record.value.state === "unknown"
          ? Unknown(`${record.value.errorReason ?? "Unknown"}: ${record.value.errorMessage ?? "payment outcome open"}`, ref, found)
          : outcome
      })

      return MarketplaceFulfilment.of({ attempt })
    })
  )
}
