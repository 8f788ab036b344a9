/**
 * The wallet road's money decisions, pure: which payment on chain is a quote's, what state a quote
 * moves to from what the chain and the marketplace show, and what a reported signed message means.
 * Adapters only gather the evidence and apply the decision (one conditional write per step, so each
 * final state is reached exactly once).
 *
 * A quote is paid by a message leaving the quoted wallet with the invoice's `Ref#` in its comment and
 * exactly the invoice's amount: what Fragment itself credits. Nothing else settles it as paid.
 */
import { formatTon } from "../money/Nanoton.ts"
import type { OutgoingPayment } from "../ports/Blockchain.ts"
import type { DeliveryState } from "../ports/Marketplace.ts"
import {
  isFinalQuoteState,
  type WalletQuote,
  type WalletQuotePatch,
  type WalletQuoteState
} from "../ports/WalletQuotes.ts"

export const isFinal = isFinalQuoteState

const REF = /Ref#([A-Za-z0-9_-]+)/

/** The payment of this quote: its `Ref#` (the whole id, not a prefix of another) and exactly its amount. */
export const isQuotePayment = (quote: Pick<WalletQuote, "ref" | "payAmount">, payment: OutgoingPayment): boolean =>
  payment.amount === quote.payAmount && REF.exec(payment.comment ?? "")?.[1] === quote.ref

/** What the chain and the marketplace show about one quote at one moment. */
export interface QuoteEvidence {
  /** The quote's payments found leaving its wallet, oldest first (more than one: paid twice). */
  readonly payments: ReadonlyArray<OutgoingPayment>
  /** Chain time (unix seconds) the chain was read at: how far it has been seen. */
  readonly chainTime: number
  /** The marketplace's answer about the invoice, when it was asked (only once paid). */
  readonly delivery?: DeliveryState
  /** Unix seconds now. */
  readonly now: number
  /** Seconds after `validUntil` before a quote unpaid on chain counts as never paid. */
  readonly marginSeconds: number
  /** Seconds after the payment within which the marketplace should confirm delivery. */
  readonly deliverySeconds: number
}

export type QuoteDecision =
  | { readonly _tag: "Stay" }
  | { readonly _tag: "Settle"; readonly to: WalletQuoteState; readonly patch: WalletQuotePatch }

const stay: QuoteDecision = { _tag: "Stay" }
const settle = (to: WalletQuoteState, patch: WalletQuotePatch): QuoteDecision => ({ _tag: "Settle", to, patch })

const twice = (quote: WalletQuote, payments: ReadonlyArray<OutgoingPayment>) =>
  payments.length > 1
    ? `; warning: ${payments.length} payments with Ref#${quote.ref} left the wallet (txs ${payments.map((p) => p.txHash).join(", ")}), the marketplace credits one`
    : ""

const lateNote = (quote: WalletQuote, txHash: string, paidAt: number) =>
  `Paid after the quote's deadline (valid_until ${quote.validUntil}, paid at ${paidAt}, tx ${txHash}, ` +
  `${formatTon(quote.payAmount)} TON with Ref#${quote.ref}): the marketplace's request had expired, so no delivery is awaited; ` +
  "the payment is with the marketplace, not with this service, ask its support with the tx hash"

/**
 * An expired quote paid afterwards (by a message signed with a later deadline than the quote's): it
 * stays expired (its request had expired before), but names that payment, once, so the order never
 * says nothing left the wallet when money did.
 */
export const decideLatePayment = (quote: WalletQuote, payments: ReadonlyArray<OutgoingPayment>): QuoteDecision => {
  const late = payments[0]
  if (quote.state !== "expired" || quote.txHash !== null || late === undefined) return stay
  return settle("expired", { txHash: late.txHash, paidAt: late.utime, note: lateNote(quote, late.txHash, late.utime) })
}

/** The next state of a quote, or Stay. Final states never move. */
export const decideQuote = (quote: WalletQuote, evidence: QuoteEvidence): QuoteDecision => {
  if (isFinal(quote.state)) return stay
  const paid = evidence.payments[0]
  if (quote.state === "awaiting_payment") {
    if (paid !== undefined) return settle("paid", { txHash: paid.txHash, paidAt: paid.utime })
    if (evidence.chainTime <= quote.validUntil + evidence.marginSeconds) return stay
    return quote.boc === null
      ? settle("expired", {
          note: `Not paid before the quote's deadline (valid_until ${quote.validUntil}): nothing left the wallet; ask for a new quote`
        })
      : settle("failed", {
          note:
            `The signed message was reported, but no payment of ${formatTon(quote.payAmount)} TON with Ref#${quote.ref} ` +
            "left the wallet before the quote's deadline: the chain skipped it (too little balance for amount and fees) " +
            "or it was never broadcast; nothing was paid"
        })
  }
  // paid: read delivery as the seed road does
  const extra = twice(quote, evidence.payments)
  const delivery = evidence.delivery
  if (delivery?._tag === "Delivered") return settle("delivered", { note: `Delivered by the marketplace${extra}` })
  const paidAt = quote.paidAt ?? evidence.now
  // Fragment's request expires at validUntil (its page says so; a TON Connect wallet refuses to sign
  // later): no delivery of a payment landing after it is awaited (the sandbox credits none).
  if (paidAt > quote.validUntil) {
    return settle("paid_unconfirmed", { note: `${lateNote(quote, quote.txHash ?? "?", paidAt)}${extra}` })
  }
  if (delivery?._tag === "Unattributable" && delivery.confirm === "accepted") {
    return settle("paid_unconfirmed", {
      note: `Paid to the marketplace (tx ${quote.txHash ?? "?"}) and it accepted the signed message; delivery not confirmed (${delivery.why})${extra}`
    })
  }
  if (evidence.now - paidAt < evidence.deliverySeconds) return stay
  return settle("paid_unconfirmed", {
    note: `Paid on chain (tx ${quote.txHash ?? "?"}, ${formatTon(quote.payAmount)} TON with Ref#${quote.ref}), but the marketplace did not confirm delivery within ${evidence.deliverySeconds} s${extra}`
  })
}

/** What a reported signed message means for its quote. */
export type ReportDecision = "store" | "same" | "second"

export const decideReport = (quote: Pick<WalletQuote, "boc">, boc: string): ReportDecision =>
  quote.boc === null ? "store" : quote.boc === boc ? "same" : "second"

/**
 * A repeated quote request under an order id that has a quote: answer that quote again (`replay`),
 * quote anew in its place (`replace`), or refuse while it may still be paid (`busy`).
 */
export const decideRepeat = (
  existing: Pick<WalletQuote, "state" | "fingerprint" | "validUntil">,
  fingerprint: string,
  now: number,
  /** Settled within the replay window: a bot retrying after its own time-out gets the same answer. */
  recent: boolean
): "replay" | "replace" | "busy" => {
  const same = existing.fingerprint === fingerprint
  switch (existing.state) {
    case "awaiting_payment":
      return same && now < existing.validUntil ? "replay" : "busy"
    case "paid":
      return same ? "replay" : "busy"
    case "delivered":
    case "paid_unconfirmed":
      return same && recent ? "replay" : "replace"
    case "expired":
    case "failed":
      return "replace"
  }
}
