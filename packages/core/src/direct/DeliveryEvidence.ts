/**
 * Per-order proof of a marketplace purchase, without looking at any other order: the order's own
 * payment confirmed on chain (the stored message: to the address the marketplace gave, exactly its
 * amount, with its `Ref#` in the payload) and the marketplace having accepted that signed message
 * (`confirmReq`). Such an order is paid to the marketplace; when the marketplace's delivery state
 * cannot be attributed to it, it is settled `done` with this evidence as its delivery note instead
 * of "delivered", and shown as paid.
 */
import { formatTon } from "../money/Nanoton.ts"
import type { DeliveryState } from "../ports/Marketplace.ts"
import type { DirectPurchaseRecord } from "../ports/DirectPurchaseRecords.ts"

/** The reason a `done` order carries when its delivery rests on its own evidence, not the marketplace's word. */
export const DELIVERY_UNCONFIRMED = "PaidDeliveryUnconfirmed"

export type Delivery = "delivered" | "paid"

export const deliveryOf = (record: Pick<DirectPurchaseRecord, "errorReason">): Delivery =>
  record.errorReason === DELIVERY_UNCONFIRMED ? "paid" : "delivered"

/** The evidence text, or undefined when this order's own evidence does not prove the payment. */
export const paidEvidence = (record: DirectPurchaseRecord, state: DeliveryState): string | undefined => {
  const { payAmount, payTo, prepared, ref, txHash } = record
  if (
    state._tag === "Delivered" ||
    state.confirm !== "accepted" ||
    txHash === null ||
    payTo === null ||
    payAmount === null ||
    ref === null ||
    prepared === null
  ) {
    return undefined
  }
  const why = state._tag === "Unattributable" ? state.why : `the marketplace still says "${state.mode}"`
  return (
    `Paid to the marketplace: tx ${txHash} sent ${formatTon(payAmount)} TON to ${payTo} with Ref#${ref}, ` +
    `and it accepted the signed message; delivery not confirmed (${why})`
  )
}
