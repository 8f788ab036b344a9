/**
 * Fragment answers errors as HTTP 200 with `{"error": "<text>"}`; this maps each known text to a
 * precise `MarketplaceError` reason. Only Fragment's own short error text reaches `message`.
 */
import { MarketplaceError, type MarketplaceErrorReason } from "@resale/core/ports/Marketplace.ts"

/** Fragment's answer to a stale or foreign api hash; the transport refreshes the hash once. */
export const STALE_HASH = "Bad request"

const HTML_ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" }

/** Fragment HTML-escapes some texts ("can&#39;t"); strip tags and cap the length for logs. */
export const cleanFragmentText = (text: string): string =>
  text
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => HTML_ENTITIES[entity] ?? entity)
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200)

const RULES: ReadonlyArray<readonly [RegExp, MarketplaceErrorReason]> = [
  [/no telegram users found/i, "RecipientNotFound"],
  [/enter a username assigned to a user/i, "RecipientNotFound"],
  [/user not found|username not found/i, "RecipientNotFound"],
  [/already subscribed/i, "AlreadySubscribed"],
  [/access denied/i, "SessionExpired"],
  [/session expired|reconnect your wallet|\blog ?in\b/i, "SessionExpired"],
  [/verif|kyc/i, "NeedVerify"],
  [/invalid method/i, "Unavailable"],
  [/too many requests|flood|try again later/i, "Unavailable"]
]

export const reasonOfFragmentError = (text: string): MarketplaceErrorReason => {
  const clean = cleanFragmentText(text)
  for (const [pattern, reason] of RULES) {
    if (pattern.test(clean)) return reason
  }
  // everything else is Fragment refusing this request: cannot gift, price changed, bad quantity...
  return "Rejected"
}

export const fromFragmentError = (method: string, text: string): MarketplaceError =>
  new MarketplaceError({
    reason: reasonOfFragmentError(text),
    message: `Fragment ${method}: ${cleanFragmentText(text) || "error"}`
  })

/** Fragment's "Price was changed" (any punctuation after it): the caller re-syncs and retries. */
export const isPriceChanged = (error: MarketplaceError): boolean =>
  error.reason === "Rejected" && /price (was|has been|has) changed/i.test(error.message)

export const unavailable = (message: string): MarketplaceError =>
  new MarketplaceError({ reason: "Unavailable", message })

export const timeout = (message: string): MarketplaceError => new MarketplaceError({ reason: "Timeout", message })

export const sessionExpired = (message: string): MarketplaceError =>
  new MarketplaceError({ reason: "SessionExpired", message })
