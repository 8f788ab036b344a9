/**
 * A marketplace purchase paid from the hot wallet for one charge of an account order, and what it
 * ended in (so what the order does next). `BatchedPurchases` takes the one and answers the other.
 */
import type { Delivery } from "../direct/DeliveryEvidence.ts"
import type { PremiumMonths } from "../orders/Order.ts"

export type WalletPurchase = {
  /** Stable per charge across attempts and restarts: the payment's exactly-once key. */
  readonly key: string
  readonly username: string
} & ({ readonly kind: "stars"; readonly units: number } | { readonly kind: "premium"; readonly units: PremiumMonths })

/** What the purchase ended in, and so what the order does next. */
export type PurchaseOutcome =
  /**
   * Paid once and settled: the transaction and the marketplace's `Ref#`. `delivery` "paid": settled on
   * the order's own payment evidence (`deliveryNote`), the marketplace never confirmed its delivery.
   */
  | {
      readonly _tag: "Delivered"
      readonly txHash: string
      readonly ref: string | null
      readonly delivery: Delivery
      readonly deliveryNote: string | null
    }
  /** Nothing left the wallet. `retryable`: the network, the marketplace's outage or the wallet's funds may change. */
  | { readonly _tag: "NotPaid"; readonly retryable: boolean; readonly reason: string; readonly message: string }
  /** This key (or the wallet) has a payment in flight elsewhere: look again soon, nothing decided. */
  | { readonly _tag: "InFlight"; readonly message: string }
  /** Money may have left, or did, and delivery is not confirmed: never refund on this ground. */
  | {
      readonly _tag: "PaidUnconfirmed"
      readonly message: string
      readonly ref: string | null
      readonly txHash: string | null
      readonly state: string
    }
