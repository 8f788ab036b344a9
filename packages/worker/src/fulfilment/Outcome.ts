/**
 * What one fulfilment attempt of an order ended in, and so what happens to the order:
 * - Delivered: `processing` -> `completed` with the tx id (and the marketplace `Ref#`).
 * - NotDelivered: nothing was paid or sent. `transient`: back to `queued` with backoff and
 *   attempts + 1 (failed and refunded after the limit); otherwise failed and refunded now.
 * - Busy: the hot wallet (or this very order) has a payment in flight elsewhere: back to `queued`
 *   soon, attempts unchanged.
 * - Unknown: money may have left (or did, and delivery is unconfirmed): back to `queued` after
 *   the reconcile delay, attempts unchanged, so the next attempt first reconciles the same payment.
 *   Never refunded on this ground.
 */
export type Outcome =
  | { readonly _tag: "Delivered"; readonly txId: string; readonly ref?: string }
  | { readonly _tag: "NotDelivered"; readonly transient: boolean; readonly error: string }
  | { readonly _tag: "Busy"; readonly error: string }
  | { readonly _tag: "Unknown"; readonly error: string; readonly ref?: string }

export const Delivered = (txId: string, ref?: string): Outcome => ({
  _tag: "Delivered",
  txId,
  ...(ref === undefined ? {} : { ref })
})
export const NotDelivered = (transient: boolean, error: string): Outcome => ({ _tag: "NotDelivered", transient, error })
export const Busy = (error: string): Outcome => ({ _tag: "Busy", error })
export const Unknown = (error: string, ref?: string): Outcome => ({
  _tag: "Unknown",
  error,
  ...(ref === undefined ? {} : { ref })
})
