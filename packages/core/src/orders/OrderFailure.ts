/**
 * Why an order did not go through, as a stable code (`error_code` on the wire, a sentence on the
 * shopper's pages), next to the operator's text (`lastError`), which stays as it is.
 *
 * The code is derived from `lastError` by `failureCode`, a pure function over the formats this module
 * writes (`marketplaceFailure`, `giftFailure`, `gaveUp`, `operatorRefund`): the writers and the reader
 * live here together, the reason literals map to codes through exhaustive records (a new reason
 * without a code does not compile), and orders stored before this module read the same way (no
 * migration, no backfill).
 */
import { Schema } from "effect"
import type { GiftSenderErrorReason } from "../ports/GiftSender.ts"
import { GiftSenderErrorReason as GiftReasons } from "../ports/GiftSender.ts"
import type { MarketplaceErrorReason } from "../ports/Marketplace.ts"
import { MarketplaceErrorReason as MarketplaceReasons } from "../ports/Marketplace.ts"

/**
 * - recipient_not_found: no Telegram user with that username (or a bot / channel)
 * - already_premium: the Premium recipient already has Premium
 * - purchase_refused: the marketplace refused this purchase for this recipient
 * - gift_refused: Telegram refused the gift (the recipient does not accept gifts)
 * - gift_sold_out: the gift is no longer on sale
 * - marketplace_timeout: the marketplace did not answer in time, on every attempt
 * - service_unavailable: the marketplace or the gift service was unavailable to the shop
 * - refunded_by_operator: its delivery stayed unknown and an operator refunded it
 * - unknown: anything else (the shop's own trouble)
 */
export const OrderFailureCode = Schema.Literals([
  "recipient_not_found",
  "already_premium",
  "purchase_refused",
  "gift_refused",
  "gift_sold_out",
  "marketplace_timeout",
  "service_unavailable",
  "refunded_by_operator",
  "unknown"
])
export type OrderFailureCode = typeof OrderFailureCode.Type

/** Every marketplace reason has its code; a new reason fails the compile here. */
export const marketplaceCodes: Readonly<Record<MarketplaceErrorReason, OrderFailureCode>> = {
  RecipientNotFound: "recipient_not_found",
  AlreadySubscribed: "already_premium",
  Rejected: "purchase_refused",
  Timeout: "marketplace_timeout",
  Unavailable: "service_unavailable",
  Blocked: "service_unavailable",
  SessionBusy: "service_unavailable",
  // The shop's marketplace account needs an operator: for the shopper, the service was unavailable.
  NeedVerify: "service_unavailable",
  SessionExpired: "service_unavailable"
}

/** Every gift sender reason has its code; a new reason fails the compile here. */
export const giftCodes: Readonly<Record<GiftSenderErrorReason, OrderFailureCode>> = {
  RecipientNotFound: "recipient_not_found",
  Rejected: "gift_refused",
  GiftUnavailable: "gift_sold_out",
  UnknownAccount: "service_unavailable",
  InsufficientStars: "service_unavailable",
  FloodWait: "service_unavailable",
  Unavailable: "service_unavailable",
  // A gift timeout is an unknown outcome, never a failure by itself; should one end an order, it reads so.
  Timeout: "service_unavailable"
}

const MARKETPLACE = "MarketplaceRejected"
const GIFT = "gift not sent"
const OPERATOR_REFUND = "refunded by an operator"

/** The text of a marketplace refusal before anything was paid. */
export const marketplaceFailure = (reason: MarketplaceErrorReason, message: string): string =>
  `${MARKETPLACE} (${reason}): ${message}`

/** The text of a gift the sender did not send. */
export const giftFailure = (reason: GiftSenderErrorReason, message: string): string => `${GIFT} (${reason}): ${message}`

/** The text of an order failed at the attempt limit: the last attempt's text kept behind it. */
export const gaveUp = (attempts: number, error: string): string => `gave up after ${attempts} attempts: ${error}`

/** The text of an operator's refund of an order whose delivery stayed unknown. */
export const operatorRefund = (note: string): string =>
  (note.trim() === "" ? OPERATOR_REFUND : `${OPERATOR_REFUND}: ${note.trim()}`).slice(0, 1000)

const GAVE_UP = /^gave up after \d+ attempts: /
const TAGGED = /^(MarketplaceRejected|gift not sent) \((\w+)\):/
const isMarketplaceReason = Schema.is(MarketplaceReasons)
const isGiftReason = Schema.is(GiftReasons)

/** The code of an order's `lastError`: null when there is none, `unknown` when it is no known failure. */
export const failureCode = (lastError: string | null): OrderFailureCode | null => {
  if (lastError === null) return null
  const error = lastError.replace(GAVE_UP, "")
  if (error.startsWith(OPERATOR_REFUND)) return "refunded_by_operator"
  const tagged = TAGGED.exec(error)
  const reason = tagged?.[2]
  if (tagged?.[1] === MARKETPLACE && isMarketplaceReason(reason)) return marketplaceCodes[reason]
  if (tagged?.[1] === GIFT && isGiftReason(reason)) return giftCodes[reason]
  return "unknown"
}
