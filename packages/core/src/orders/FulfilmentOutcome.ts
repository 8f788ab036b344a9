import type { DirectReceipt } from "../direct/DirectPurchase.ts"
import { isTransientReason, type MarketplaceErrorReason } from "../ports/Marketplace.ts"
import type { OrderEvidence } from "./Order.ts"
import { marketplaceFailure } from "./OrderFailure.ts"

/**
 * What one fulfilment attempt of an order ended in: the one outcome type from the attempt (hot-wallet
 * purchase or gift send) to the use case that applies it (`OrderFulfilment`), which moves the order as
 * `nextStep` decides:
 * - Delivered: `processing` -> `completed` with the tx id (and the marketplace `Ref#`). `unconfirmed`
 *   holds the payment evidence when the order was settled on it while the marketplace never
 *   confirmed the delivery for this order: completed with delivery `paid_unconfirmed`, not `confirmed`.
 * - NotDelivered: nothing was paid or sent. `transient`: back to `queued` with backoff and
 *   attempts + 1 (failed and refunded after the limit); otherwise failed and refunded now.
 * - Busy: the hot wallet (or this very order) has a payment in flight elsewhere: back to `queued`
 *   soon, attempts unchanged.
 * - Unknown: money may have left (or did, and delivery is unconfirmed): back to `queued` after a
 *   growing, jittered delay (attempts unchanged, so the next attempt first reconciles the same
 *   payment), or past the limit to `needs_attention` for an operator, with what is known (`ref`,
 *   `txHash`, `chainState`). `attentionNow`: no later check can tell (the payment is held for an
 *   operator), so it goes to `needs_attention` at once. Never refunded on this ground.
 */
export type FulfilmentOutcome =
  | { readonly _tag: "Delivered"; readonly txId: string; readonly ref?: string; readonly unconfirmed?: string }
  | { readonly _tag: "NotDelivered"; readonly transient: boolean; readonly error: string }
  | { readonly _tag: "Busy"; readonly error: string }
  | {
      readonly _tag: "Unknown"
      readonly error: string
      readonly ref?: string
      readonly txHash?: string
      readonly chainState?: string
      readonly attentionNow?: true
    }

export const Delivered = (txId: string, ref?: string, unconfirmed?: string): FulfilmentOutcome => ({
  _tag: "Delivered",
  txId,
  ...(ref === undefined ? {} : { ref }),
  ...(unconfirmed === undefined ? {} : { unconfirmed })
})

/** A marketplace receipt as an outcome: its own word on delivery ("paid" = settled on its evidence) carried over. */
export const deliveredByReceipt = (
  receipt: Pick<DirectReceipt, "txHash" | "ref" | "delivery" | "deliveryNote">
): FulfilmentOutcome =>
  Delivered(
    receipt.txHash,
    receipt.ref ?? undefined,
    receipt.delivery === "paid" ? (receipt.deliveryNote ?? "paid on the order's own evidence") : undefined
  )

export const NotDelivered = (transient: boolean, error: string): FulfilmentOutcome => ({
  _tag: "NotDelivered",
  transient,
  error
})

/** The marketplace refused before anything was paid: its own reason decides (an outage retries, a refusal refunds). */
export const refusedByMarketplace = (reason: MarketplaceErrorReason, message: string): FulfilmentOutcome =>
  NotDelivered(isTransientReason(reason), marketplaceFailure(reason, message))

export const Busy = (error: string): FulfilmentOutcome => ({ _tag: "Busy", error })

export const Unknown = (
  error: string,
  ref?: string | null,
  found?: {
    readonly txHash?: string | null
    readonly chainState?: string | null
    readonly attentionNow?: boolean
  }
): FulfilmentOutcome => ({
  _tag: "Unknown",
  error,
  ...(ref == null ? {} : { ref }),
  ...(found?.txHash == null ? {} : { txHash: found.txHash }),
  ...(found?.chainState == null ? {} : { chainState: found.chainState }),
  ...(found?.attentionNow === true ? { attentionNow: true as const } : {})
})

/** What `OrderService.complete` records for a delivery. */
export interface Completion {
  readonly txId: string
  readonly fragmentRef?: string
  /** The evidence of a payment whose delivery the marketplace never confirmed; absent = confirmed. */
  readonly unconfirmed?: string
}

export const completionOf = (outcome: Extract<FulfilmentOutcome, { _tag: "Delivered" }>): Completion => ({
  txId: outcome.txId,
  ...(outcome.ref === undefined ? {} : { fragmentRef: outcome.ref }),
  ...(outcome.unconfirmed === undefined ? {} : { unconfirmed: outcome.unconfirmed })
})

/** The order fields a completion sets besides status and times: the delivery mark and, if paid only, its evidence. */
export const completionPatch = (completion: Completion, before: OrderEvidence | null) => ({
  txId: completion.txId,
  ...(completion.fragmentRef === undefined ? {} : { fragmentRef: completion.fragmentRef }),
  delivery: completion.unconfirmed === undefined ? ("confirmed" as const) : ("paid_unconfirmed" as const),
  ...(completion.unconfirmed === undefined
    ? {}
    : {
        evidence: {
          txHash: completion.txId,
          ref: completion.fragmentRef ?? before?.ref ?? null,
          chainState: "done",
          answers: [...(before?.answers ?? []), completion.unconfirmed.slice(0, 300)].slice(-5)
        } satisfies OrderEvidence
      })
})
