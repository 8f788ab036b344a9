/**
 * The settings of `BatchedPurchases`: how many payments one message carries, how many quotes run at
 * once, how long a free slot may wait for a fuller batch and how long delivery is read after paying.
 */
import { Context, Duration } from "effect"

export interface BatchedPurchaseSettings {
  /** Most payments one message carries (the wallet's own limit applies too); 1: one at a time. */
  readonly batchLimit: number
  readonly quoteConcurrency: number
  /**
   * About one block of the chain (some 5 s on mainnet): how long a free slot may hold what is ready
   * for a fuller batch, only when every slot sent within it or in a rush (`SendingRule.ts`). Zero:
   * every free slot sends at once.
   */
  readonly fillWithin: Duration.Duration
  /** How long to read the marketplace for delivery after paying before leaving the order open. */
  readonly deliveryWithin: Duration.Duration
  readonly pollEvery: Duration.Duration
}

export const BatchedPurchaseSettings = Context.Reference<BatchedPurchaseSettings>(
  "core/wallet/BatchedPurchaseSettings",
  {
    defaultValue: () => ({
      batchLimit: 255,
      quoteConcurrency: 8,
      fillWithin: Duration.seconds(5),
      deliveryWithin: Duration.seconds(60),
      pollEvery: Duration.millis(1500)
    })
  }
)
