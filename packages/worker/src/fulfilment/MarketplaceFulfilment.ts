import type { Order } from "@resale/core/orders/Order.ts"
import { type PurchaseOutcome, WalletPurchases } from "@resale/core/direct/WalletPurchases.ts"
import { Context, Effect, Layer, Semaphore } from "effect"
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
 * `HotWallet`) through the core's `WalletPurchases`, which shares the direct surface's exactly-once
 * payment code, under one key per charge of the order: a repeat of the key answers its stored result
 * (paid once, never again), runs a failed one again (nothing was paid), and looks an open one up on
 * chain and with Fragment by its stored message and `Ref#` before anything else. Payments of one
 * worker go one at a time (one wallet, one seqno).
 */
export class MarketplaceFulfilment extends Context.Service<MarketplaceFulfilment, {
  readonly attempt: (order: Order) => Effect.Effect<Outcome>
}>()("worker/fulfilment/MarketplaceFulfilment") {
  static readonly layer = Layer.effect(
    MarketplaceFulfilment,
    Effect.gen(function*() {
      const purchases = yield* WalletPurchases
      const hotWallet = yield* HotWallet
      const oneAtATime = yield* Semaphore.make(1)

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
        return outcomeOfPurchase(yield* oneAtATime.withPermit(purchases.buy(wallet.success, purchase)))
      })

      return MarketplaceFulfilment.of({ attempt })
    })
  )
}
