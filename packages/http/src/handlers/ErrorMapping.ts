import { Effect } from "effect"
import {
  BadRequest,
  Conflict,
  Forbidden,
  type HandlerError,
  NotFound,
  ServiceUnavailable,
  TooManyRequests
} from "../api/Errors.ts"

/**
 * The one place where domain errors become HTTP answers (`{"detail": "..."}`). Domain errors
 * carry no status; anything not listed here is a defect (500, logged with its id).
 */
type Tagged = { readonly _tag: string; readonly [k: string]: unknown }

const str = (v: unknown) => (typeof v === "string" ? v : String(v))

const CAP_WORDS: Record<string, string> = {
  TopupsPerDay: "top-ups",
  CancelsPerDay: "cancelled top-ups",
  UploadsPerDay: "receipt uploads",
  TicketsPerDay: "support requests"
}

/** Caps on what an account holds at once answer 409; daily caps 429, saying when the oldest counted action leaves the window. */
const accountCapError = (e: Tagged): HandlerError => {
  const limit = str(e["limit"])
  if (e["reason"] === "OpenCardTopups") {
    return new Conflict({ detail: `Too many open top-ups: at most ${limit} card top-ups may wait for payment at once; pay or cancel one first` })
  }
  if (e["reason"] === "OpenReviews") {
    return new Conflict({ detail: `Too many receipts under review: at most ${limit} at once; wait for the operator's decision` })
  }
  const hours = Math.max(1, Math.ceil(Number(e["retryAfterSeconds"] ?? 86_400) / 3600))
  return new TooManyRequests({
    detail: `Daily limit reached: at most ${limit} ${CAP_WORDS[str(e["reason"])] ?? "actions"} per 24 hours; try again in ${hours} h`
  })
}

const byTag: Record<string, (e: Tagged) => HandlerError> = {
  UserNotFound: () => new NotFound({ detail: "User not found" }),
  ApiKeyInvalid: () => new Forbidden({ detail: "Invalid API key" }),
  TierUpgradeInvalid: (e) =>
    e["reason"] === "UnknownTier"
      ? new BadRequest({ detail: `Unknown tier ${str(e["requested"])}` })
      : new Conflict({ detail: `Tier ${str(e["requested"])} is not an upgrade of tier ${str(e["current"])}` }),
  InfoLookupQuotaExceeded: (e) =>
    new TooManyRequests({ detail: `Daily info lookup quota of ${str(e["limit"])} is used up; upgrade the tier for more` }),
  InsufficientBalance: (e) =>
    new Conflict({
      detail: `Insufficient balance: ${str(e["required"])} UZS required, ${str(e["balance"])} UZS available`
    }),
  TopupNotFound: () => new NotFound({ detail: "Top-up not found" }),
  TopupTransitionInvalid: (e) => new Conflict({ detail: `Top-up is ${str(e["from"])}; it cannot become ${str(e["to"])}` }),
  TopupAmountInvalid: (e) =>
    new BadRequest({ detail: `Amount must be between ${str(e["min"])} and ${str(e["max"])} UZS` }),
  TopupPossibleDuplicate: (e) => {
    const at = e["creditedAt"] instanceof Date ? e["creditedAt"].toISOString() : str(e["creditedAt"])
    const then = "if this receipt is a second payment, approve again with confirm_duplicate=true"
    return new Conflict({
      detail: e["reason"] === "SameFile"
        ? `Possible duplicate: the same receipt file was sent for top-up #${str(e["duplicateOf"])}; ${then}`
        : e["reason"] === "NearAmount"
        ? `Possible duplicate: top-up #${str(e["duplicateOf"])}, credited to this user at ${at}, is within 1 % or 1,000 UZS of this receipt's ${str(e["amountUzs"])} UZS; ${then}`
        : `Possible duplicate: top-up #${str(e["duplicateOf"])} of ${str(e["amountUzs"])} UZS was credited to this user at ${at}; ${then}`
    })
  },
  AccountCapReached: accountCapError,
  PushSubscriptionInvalid: (e) =>
    e["reason"] === "OwnedByAnother"
      ? new Conflict({ detail: `Push subscription refused: ${str(e["message"])}` })
      : new BadRequest({ detail: `Push subscription refused: ${str(e["message"])}` }),
  TopupPayableExhausted: () => new Conflict({ detail: "Too many pending top-ups of this amount; try again shortly" }),
  ReceiptNotFound: () => new NotFound({ detail: "Receipt not found" }),
  ReceiptInvalid: (e) => new BadRequest({ detail: str(e["message"]) }),
  OrderNotFound: () => new NotFound({ detail: "Order not found" }),
  OrderTransitionInvalid: (e) => new Conflict({ detail: `Order is ${str(e["from"])}; it cannot become ${str(e["to"])}` }),
  OrderRequestInvalid: (e) => new BadRequest({ detail: str(e["message"]) }),
  TicketNotFound: () => new NotFound({ detail: "Ticket not found" }),
  TicketMessageInvalid: (e) => new BadRequest({ detail: str(e["message"]) }),
  TicketTransitionInvalid: (e) =>
    new Conflict({ detail: `Ticket is ${str(e["from"])}; it cannot become ${str(e["to"])}` }),
  PricesInvalid: (e) => new BadRequest({ detail: `${str(e["field"])}: ${str(e["message"])}` }),
  PaymentNotFound: () => new NotFound({ detail: "Payment not found" }),
  PaymentPossibleDuplicate: (e) =>
    new Conflict({
      detail: `Possible duplicate: receipt top-up #${str(e["creditedTopupId"])} of ${str(e["amountUzs"])} UZS was credited to the same user without a bank payment, so payment #${str(e["paymentId"])} is most likely that money; if it is other money, assign again with confirm_duplicate=true`
    }),
  PaymentAlreadyMatched: () => new Conflict({ detail: "Payment already matched a top-up" }),
  PaymentInvalid: (e) => new BadRequest({ detail: str(e["message"]) }),
  IdempotencyKeyConflict: () =>
    new Conflict({ detail: "Idempotency-Key was already used with a different request" }),
  IdempotencyKeyInProgress: () =>
    new Conflict({ detail: "A request with this Idempotency-Key is still being processed; retry shortly" }),
  IdempotencyKeyInvalid: (e) => new BadRequest({ detail: str(e["message"]) }),
  GiftNotFound: () => new NotFound({ detail: "Gift not found" }),
  GiftCatalogUnavailable: (e) => new ServiceUnavailable({ detail: str(e["message"]) }),
  MarketplaceError: (e) =>
    e["reason"] === "RecipientNotFound"
      ? new NotFound({ detail: "Username not found" })
      : e["reason"] === "Rejected" || e["reason"] === "AlreadySubscribed"
      ? new BadRequest({ detail: str(e["message"]) })
      : new ServiceUnavailable({ detail: "Marketplace is unavailable; try again later" })
}

const isHttpError = (e: unknown): e is HandlerError =>
  e instanceof BadRequest || e instanceof Conflict || e instanceof Forbidden || e instanceof NotFound ||
  e instanceof ServiceUnavailable || e instanceof TooManyRequests

export const toHttpError = (error: unknown): HandlerError | undefined => {
  if (isHttpError(error)) return error
  const tag = (error as Tagged | undefined)?._tag
  const map = tag === undefined ? undefined : byTag[tag]
  return map?.(error as Tagged)
}

/** Maps a use case's domain errors; unknown errors die (a bug, not a client mistake). */
export const mapErrors = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, HandlerError, R> =>
  Effect.catch(effect, (error) => {
    const mapped = toHttpError(error)
    return mapped ? Effect.fail(mapped) : Effect.die(error)
  })
