/**
 * Marketplace port: buys Telegram Stars, Premium (as a gift) and Telegram-account TON top-ups
 * from a marketplace (Fragment) that is paid with an on-chain TON message.
 *
 * Contract, in the order a caller uses it:
 * 1. `quoteStars` / `quotePremium` / `quoteTonTopup` look the recipient up, open an invoice and
 *    return the exact message the paying wallet must send (`PaymentRequest`). No money moves here.
 * 2. The caller sends `amount` nanoton to `address` with `payload` (a base64 BOC) attached
 *    UNCHANGED, before `validUntil`. The `ref` (the `Ref#` in the payload's comment) identifies the
 *    payment on chain; store it with the order before sending.
 * 3. `confirm` hands the signed external message (`boc`, optional) to the marketplace and reads the
 *    delivery state once: `Delivered` or `Pending` when the marketplace's answer can only be about
 *    this invoice, `Unattributable` when it cannot (Fragment keeps one purchase state per cookie
 *    session, so once another purchase was opened in that session its state says nothing about this
 *    one). Callers repeat it on a schedule; a `Pending` after money left is never a reason to refund.
 *    An `Unattributable` invoice is settled on its own evidence: its payment on chain (to `address`,
 *    exactly `amount`, with its `Ref#`) plus `confirm: "accepted"` means paid to the marketplace.
 * 4. `cancel` closes an invoice when something failed BEFORE the money left.
 *
 * Errors: one `MarketplaceError` with a `reason`; `message` is safe to show and log (it never holds
 * cookies, hashes, mnemonics or raw foreign bodies).
 */
import { Context, type Effect, Schema } from "effect"
import { Nanoton } from "../money/Nanoton.ts"
import { PremiumMonths } from "../orders/Order.ts"

export { Nanoton, PremiumMonths }

/** Which Fragment flow a recipient lookup or invoice belongs to. */
export const PurchaseKind = Schema.Literals(["stars", "premium", "ton"])
export type PurchaseKind = typeof PurchaseKind.Type

/** A recipient found by username; `token` is Fragment's opaque recipient id for the init call. */
export interface Recipient {
  readonly kind: PurchaseKind
  readonly username: string
  readonly token: string
  readonly name: string
  readonly photo?: string
}

/** The paying wallet as TON Connect describes it (Fragment's link call requires it). */
export interface PayerAccount {
  /** raw form "0:<64 hex>" */
  readonly address: string
  /** 64 hex chars */
  readonly publicKey: string
  /** base64 BOC of the wallet's StateInit */
  readonly walletStateInit: string
}

export interface StarsQuoteRequest {
  readonly username: string
  /** whole stars, 50..1_000_000 */
  readonly quantity: number
  readonly payer: PayerAccount
  /**
   * Paid in a batch with other invoices: the marketplace session is not kept for this purchase beyond
   * its quote (many invoices are open at once); its delivery then rests on its own evidence once the
   * session opened another purchase.
   */
  readonly batched?: boolean
}

export interface PremiumQuoteRequest {
  readonly username: string
  readonly months: PremiumMonths
  readonly payer: PayerAccount
  /** See `StarsQuoteRequest.batched`. */
  readonly batched?: boolean
}

export interface TonTopupQuoteRequest {
  readonly username: string
  /** Fragment sells whole TON only (>= 1 TON); other amounts fail with reason `Rejected`. */
  readonly amount: Nanoton
  readonly payer: PayerAccount
}

/** The on-chain message that pays an invoice. */
export interface PaymentRequest {
  readonly kind: PurchaseKind
  /** Fragment's invoice id (`req_id`) */
  readonly reqId: string
  /** what the wallet must send, in nanoton */
  readonly amount: Nanoton
  /** Fragment's receiving wallet (user-friendly form, as Fragment gives it) */
  readonly address: string
  /** base64 BOC to attach as the message body, forwarded unchanged */
  readonly payload: string
  /** the id after `Ref#` in the payload comment, e.g. "kpJ55h3BW" */
  readonly ref: string
  /** the full comment text decoded from the payload, e.g. "50 Telegram Stars \n\nRef#kpJ55h3BW" */
  readonly comment: string
  /** unix seconds after which the wallet must not send */
  readonly validUntil: number
}

export interface ConfirmRequest {
  readonly kind: PurchaseKind
  readonly reqId: string
  readonly ref: string
  /** signed external message (base64 BOC); when given it is reported to Fragment first */
  readonly boc?: string
  /** the wallet that paid; sent with `boc` like a TON Connect wallet would */
  readonly payer?: PayerAccount
}

/** What the marketplace said to the signed message reported for an invoice (`confirmReq`). */
export const ConfirmOutcome = Schema.Literals(["accepted", "refused", "unsent"])
export type ConfirmOutcome = typeof ConfirmOutcome.Type

/**
 * Delivery state. `Delivered` / `Pending` (`mode`: Fragment's page state, "new" or "processing") only
 * when the answer can only be about this invoice. `Unattributable`: the session's state may be about
 * another purchase, `why` says what happened. `confirm`: this invoice's own `confirmReq` result.
 */
export type DeliveryState =
  | { readonly _tag: "Delivered"; readonly reqId: string; readonly ref: string }
  | {
      readonly _tag: "Pending"
      readonly reqId: string
      readonly ref: string
      readonly mode: string
      readonly confirm: ConfirmOutcome
    }
  | {
      readonly _tag: "Unattributable"
      readonly reqId: string
      readonly ref: string
      readonly confirm: ConfirmOutcome
      readonly why: string
    }

export const Delivered = (reqId: string, ref: string): DeliveryState => ({ _tag: "Delivered", reqId, ref })
export const Pending = (reqId: string, ref: string, mode: string, confirm: ConfirmOutcome): DeliveryState => ({
  _tag: "Pending",
  reqId,
  ref,
  mode,
  confirm
})
export const Unattributable = (reqId: string, ref: string, confirm: ConfirmOutcome, why: string): DeliveryState => ({
  _tag: "Unattributable",
  reqId,
  ref,
  confirm,
  why
})

/**
 * Why a marketplace call failed.
 * - Timeout: no answer in time. Before payment: safe to retry. After payment: outcome unknown.
 * - Rejected: Fragment refused the request (bad quantity/amount, price changed, cannot gift).
 * - AlreadySubscribed: the premium recipient already has Premium.
 * - RecipientNotFound: no Telegram user with that username (or it is a bot/channel).
 * - NeedVerify: the Fragment account needs KYC / wallet verification (operator action).
 * - SessionExpired: cookies no longer valid or no wallet linked (operator refreshes the session).
 * - Blocked: refused before reaching the session (HTTP 403 from an anti-bot edge, not a session
 *   problem): the operator routes around it (FRAGMENT_PROXY); retried later like an outage.
 * - SessionBusy: every marketplace session is busy with another purchase (one at a time per
 *   session); nothing was opened: retry shortly.
 * - Unavailable: 5xx, rate limit after retries, malformed answers (transient).
 */
export const MarketplaceErrorReason = Schema.Literals([
  "Timeout",
  "Rejected",
  "AlreadySubscribed",
  "RecipientNotFound",
  "NeedVerify",
  "SessionExpired",
  "Blocked",
  "SessionBusy",
  "Unavailable"
])
export type MarketplaceErrorReason = typeof MarketplaceErrorReason.Type

export class MarketplaceError extends Schema.TaggedError<MarketplaceError>()("MarketplaceError", {
  reason: MarketplaceErrorReason,
  message: Schema.String
}) {}

/** Reasons worth retrying later without operator action. */
export const isTransient = (error: MarketplaceError): boolean => isTransientReason(error.reason)

export const isTransientReason = (reason: MarketplaceErrorReason): boolean =>
  reason === "Timeout" || reason === "Unavailable" || reason === "Blocked" || reason === "SessionBusy"

export class Marketplace extends Context.Service<
  Marketplace,
  {
    readonly lookupRecipient: (kind: PurchaseKind, username: string) => Effect.Effect<Recipient, MarketplaceError>
    readonly quoteStars: (request: StarsQuoteRequest) => Effect.Effect<PaymentRequest, MarketplaceError>
    readonly quotePremium: (request: PremiumQuoteRequest) => Effect.Effect<PaymentRequest, MarketplaceError>
    readonly quoteTonTopup: (request: TonTopupQuoteRequest) => Effect.Effect<PaymentRequest, MarketplaceError>
    readonly confirm: (request: ConfirmRequest) => Effect.Effect<DeliveryState, MarketplaceError>
    readonly cancel: (kind: PurchaseKind, reqId: string) => Effect.Effect<void, MarketplaceError>
  }
>()("core/ports/Marketplace") {}
