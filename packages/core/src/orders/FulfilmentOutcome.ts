/**
 * What one fulfilment attempt of an order ended in, and so what happens to the order:
 * - Delivered: `processing` -> `completed` with the tx id (and the marketplace `Ref#`).
 * - NotDelivered: nothing was paid or sent. `transient`: back to `queued` with backoff and
 *   attempts + 1 (failed and refunded after the limit); otherwise failed and refunded now.
 * - Busy: the hot wallet (or this very order) has a payment in flight elsewhere: back to `queued`
 *   soon, attempts unchanged.
 * - Unknown: money may have left (or did, and delivery is unconfirmed): `OrderWork.unknown` puts it
 *   back to `queued` after a growing, jittered delay (attempts unchanged, so the next attempt first
 *   reconciles the same payment), or past the limit to `needs_attention` for an operator, with what
 *   is known (`ref`, `txHash`, `chainState`). Never refunded on this ground.
 */
export type Outcome =
  | { readonly _tag: "Delivered"; readonly txId: string; readonly ref?: string }
  | { readonly _tag: "NotDelivered"; readonly transient: boolean; readonly error: string }
  | { readonly _tag: "Busy"; readonly error: string }
  | {
    readonly _tag: "Unknown"
    readonly error: string
    readonly ref?: string
    readonly txHash?: string
    readonly chainState?: string
  }

export const Delivered = (txId: string, ref?: string): Outcome => ({
  _tag: "Delivered",
  txId,
  ...(ref === undefined ? {} : { ref })
})
export const NotDelivered = (transient: boolean, error: string): Outcome => ({ _tag: "NotDelivered", transient, error })
export const Busy = (error: string): Outcome => ({ _tag: "Busy", error })
export const Unknown = (
  error: string,
  ref?: string,
  found?: { readonly txHash?: string | null; readonly chainState?: string | null }
): Outcome => ({
  _tag: "Unknown",
  error,
  ...(ref === undefined ? {} : { ref }),
  ...(found?.txHash == null ? {} : { txHash: found.txHash }),
  ...(found?.chainState == null ? {} : { chainState: found.chainState })
})
