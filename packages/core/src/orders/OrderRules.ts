import { multiplyUzs, type Uzs } from "../money/Uzs.ts"
import type { Prices } from "../pricing/Prices.ts"
import type { OrderItem, PremiumMonths } from "./Order.ts"
import { OrderRequestInvalid } from "./OrderErrors.ts"

/** Stars one order may buy, for every surface (account, programmatic API, direct purchase, pages). */
export const STARS_MIN = 50
export const STARS_MAX = 1_000_000
/** Telegram's limit on a star gift's text. */
export const GIFT_COMMENT_MAX = 255
/** Transient failures before an order fails for good (and is refunded); `ORDER_MAX_ATTEMPTS` by default. */
export const MAX_ATTEMPTS = 8
/** The first retry's delay by default (`ORDER_RETRY_DELAY`). */
export const BACKOFF_BASE_MS = 30_000
const BACKOFF_MAX_MS = 60 * 60_000

/** What a user asks for; `OrderItem` minus the fields the service fills in. */
export type OrderRequest =
  | { readonly kind: "stars"; readonly recipient: string; readonly stars: number }
  | { readonly kind: "premium"; readonly recipient: string; readonly months: number }
  | {
      readonly kind: "gift"
      readonly recipient: string
      /** The catalogue entry, resolved by the caller from the gift list (id and its price in stars). */
      readonly gift: { readonly id: string; readonly stars: number }
      readonly comment?: string | null | undefined
      readonly senderAccount?: string | null | undefined
      readonly anonymous?: boolean | null | undefined
    }

const USERNAME = /^[A-Za-z][A-Za-z0-9_]{3,31}$/

/** A Telegram username without the at-sign: 4-32 letters, digits or underscores, starting with a letter. */
export const normalizeUsername = (raw: string): string | undefined => {
  const name = raw.trim().replace(/^@/, "")
  return USERNAME.test(name) ? name : undefined
}

const isPremiumMonths = (n: number): n is PremiumMonths => n === 3 || n === 6 || n === 12

const invalid = (reason: OrderRequestInvalid["reason"], message: string) => new OrderRequestInvalid({ reason, message })

/** Checks a request and turns it into the stored recipient and item. */
export const validateOrder = (
  request: OrderRequest
): OrderRequestInvalid | { readonly recipient: string; readonly item: OrderItem } => {
  const recipient = normalizeUsername(request.recipient)
  if (recipient === undefined) return invalid("Username", "username must be 4-32 letters, digits or underscores")
  switch (request.kind) {
    case "stars": {
      if (!Number.isSafeInteger(request.stars) || request.stars < STARS_MIN) {
        return invalid("StarsAmountTooSmall", `amount must be a whole number of at least ${STARS_MIN} stars`)
      }
      if (request.stars > STARS_MAX) return invalid("StarsAmountTooLarge", `amount must be at most ${STARS_MAX} stars`)
      return { recipient, item: { kind: "stars", stars: request.stars } }
    }
    case "premium": {
      if (!isPremiumMonths(request.months)) return invalid("PremiumDuration", "duration must be 3, 6 or 12 months")
      return { recipient, item: { kind: "premium", months: request.months } }
    }
    case "gift": {
      const giftId = request.gift.id.trim()
      if (!/^\d{1,30}$/.test(giftId)) return invalid("Gift", "gift_id must be a numeric string")
      if (!Number.isSafeInteger(request.gift.stars) || request.gift.stars <= 0) {
        return invalid("Gift", "the gift has no valid star price")
      }
      const comment = request.comment?.trim() || null
      if (comment !== null && comment.length > GIFT_COMMENT_MAX) {
        return invalid("Comment", `comment must be at most ${GIFT_COMMENT_MAX} characters`)
      }
      const senderAccount = request.senderAccount?.trim() || null
      if (senderAccount !== null && !/^[A-Za-z0-9_-]{1,32}$/.test(senderAccount)) {
        return invalid("SenderAccount", "account must be a configured sender name")
      }
      return {
        recipient,
        item: {
          kind: "gift",
          giftId,
          giftStars: request.gift.stars,
          comment,
          senderAccount,
          anonymous: request.anonymous === true
        }
      }
    }
  }
}

/** The UZS price of an item at the given prices. */
export const priceOf = (item: OrderItem, prices: Prices): Uzs => {
  switch (item.kind) {
    case "stars":
      return multiplyUzs(prices.starPriceUzs, item.stars)
    case "premium":
      return item.months === 3
        ? prices.premium3MonthUzs
        : item.months === 6
          ? prices.premium6MonthUzs
          : prices.premium12MonthUzs
    case "gift":
      return multiplyUzs(prices.starPriceUzs, item.giftStars)
  }
}

/** Delay before attempt `attempts + 1` after a transient failure: `baseMs` (30 s) doubling, at most an hour. */
export const backoffMs = (attempts: number, baseMs: number = BACKOFF_BASE_MS): number =>
  Math.min(BACKOFF_MAX_MS, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)))
