import type {
  AccountCapReached,
  ApiKeyInvalid,
  IdempotencyKeyConflict,
  IdempotencyKeyInProgress,
  IdempotencyKeyInvalid,
  InfoLookupQuotaExceeded,
  InsufficientBalance,
  OrderNotFound,
  OrderRequestInvalid,
  OrderTransitionInvalid,
  PaymentAlreadyMatched,
  PaymentInvalid,
  PaymentNotFound,
  PaymentPossibleDuplicate,
  PricesInvalid,
  ReceiptInvalid,
  PushSubscriptionInvalid,
  ReceiptNotFound,
  TicketMessageInvalid,
  TicketNotFound,
  TicketTransitionInvalid,
  TierUpgradeInvalid,
  TopupAmountInvalid,
  TopupNotFound,
  TopupPayableExhausted,
  TopupPossibleDuplicate,
  TopupTransitionInvalid,
  UserNotFound,
  WebhookEndpointInvalid,
  WebhookEndpointNotFound,
  WebhookTestsPending
} from "@resale/core"
import type { MarketplaceError } from "@resale/core/ports"
import { MAX_ENDPOINTS_PER_USER } from "@resale/core/webhooks/Webhook.ts"
import { Clock, Effect } from "effect"
import type { ErrorCode } from "@resale/wire/ErrorCodes.ts"
import {
  BadRequest,
  Conflict,
  Forbidden,
  type HandlerError,
  NotFound,
  ServiceUnavailable,
  TooManyRequests
} from "../api/Errors.ts"
import { GiftCatalogUnavailable, GiftNotFound } from "@resale/webkit/GiftCatalog.ts"
import { RequestId } from "@resale/webkit/RequestId.ts"
import { retryAfter } from "../server/ResponseHeaders.ts"

/**
 * The one place where domain errors become HTTP answers (`{"detail", "code", "params"}`). Domain
 * errors carry no status. `DomainError` lists every error a handler may pass to `mapErrors`, and
 * `MAPPING` must have an entry for each of them: an error added to a use case and not mapped here
 * fails the type check (at `mapErrors`' call site), instead of silently becoming a 500.
 */
export type DomainError =
  | UserNotFound
  | ApiKeyInvalid
  | TierUpgradeInvalid
  | InfoLookupQuotaExceeded
  | InsufficientBalance
  | TopupNotFound
  | TopupTransitionInvalid
  | TopupAmountInvalid
  | TopupPossibleDuplicate
  | TopupPayableExhausted
  | ReceiptNotFound
  | ReceiptInvalid
  | OrderNotFound
  | OrderTransitionInvalid
  | OrderRequestInvalid
  | TicketNotFound
  | TicketMessageInvalid
  | TicketTransitionInvalid
  | PricesInvalid
  | PaymentNotFound
  | PaymentPossibleDuplicate
  | PaymentAlreadyMatched
  | PaymentInvalid
  | IdempotencyKeyConflict
  | IdempotencyKeyInProgress
  | IdempotencyKeyInvalid
  | GiftNotFound
  | GiftCatalogUnavailable
  | MarketplaceError
  | AccountCapReached
  | PushSubscriptionInvalid
  | WebhookEndpointInvalid
  | WebhookEndpointNotFound
  | WebhookTestsPending

type Mapping = { readonly [E in DomainError as E["_tag"]]: (error: E) => HandlerError }

const ORDER_REQUEST_CODES: Record<OrderRequestInvalid["reason"], ErrorCode> = {
  StarsAmountTooSmall: "stars_amount_too_small",
  StarsAmountTooLarge: "stars_amount_too_large",
  PremiumDuration: "premium_duration_invalid",
  Username: "username_invalid",
  Gift: "gift_invalid",
  Comment: "comment_invalid",
  SenderAccount: "sender_account_invalid"
}

const RECEIPT_CODES: Record<ReceiptInvalid["reason"], ErrorCode> = {
  UnsupportedType: "receipt_type_unsupported",
  TooLarge: "receipt_too_large",
  Empty: "receipt_empty"
}

/** Seconds until the next UTC midnight, when daily quotas start again. */
const secondsToMidnightUtc = (now: number): number => {
  const next = new Date(now)
  next.setUTCHours(24, 0, 0, 0)
  return Math.max(1, Math.ceil((next.getTime() - now) / 1000))
}

const CAP_ANSWERS: Record<AccountCapReached["reason"], { readonly code: ErrorCode; readonly what: string }> = {
  OpenCardTopups: { code: "account_cap_open_topups", what: "card top-ups waiting for payment at once" },
  OpenReviews: { code: "account_cap_open_reviews", what: "receipts under review at once" },
  TopupsPerDay: { code: "account_cap_topups_per_day", what: "top-ups per 24 hours" },
  CancelsPerDay: { code: "account_cap_cancels_per_day", what: "cancelled top-ups per 24 hours" },
  UploadsPerDay: { code: "account_cap_uploads_per_day", what: "receipt uploads per 24 hours" },
  TicketsPerDay: { code: "account_cap_tickets_per_day", what: "support requests per 24 hours" }
}

/** What an account holds at once answers 409; what it does per 24 hours 429, with when the oldest action leaves the window. */
const accountCapAnswer = (e: AccountCapReached): HandlerError => {
  const { code, what } = CAP_ANSWERS[e.reason]
  if (e.retryAfterSeconds === null) {
    return new Conflict({
      detail: `Too many open: at most ${e.limit} ${what}; finish or cancel one first`,
      code,
      params: { limit: e.limit }
    })
  }
  return new TooManyRequests({
    detail: `Daily limit reached: at most ${e.limit} ${what}; try again in ${Math.ceil(e.retryAfterSeconds / 3600)} h`,
    code,
    params: { limit: e.limit, retry_after_seconds: e.retryAfterSeconds }
  })
}

const DUPLICATE_REASONS = { SameFile: "same_file", SameAmount: "same_amount", NearAmount: "near_amount" } as const

const MAPPING: Mapping = {
  UserNotFound: () => new NotFound({ detail: "User not found", code: "user_not_found" }),
  ApiKeyInvalid: () => new Forbidden({ detail: "Invalid API key", code: "api_key_invalid" }),
  TierUpgradeInvalid: (e) =>
    e.reason === "UnknownTier"
      ? new BadRequest({
          detail: `Unknown tier ${e.requested}`,
          code: "tier_unknown",
          params: { requested: e.requested }
        })
      : new Conflict({
          detail: `Tier ${e.requested} is not an upgrade of tier ${e.current}`,
          code: "tier_not_upgrade",
          params: { requested: e.requested, current: e.current }
        }),
  InfoLookupQuotaExceeded: (e) =>
    new TooManyRequests({
      detail: `Daily info lookup quota of ${e.limit} is used up; upgrade the tier for more`,
      code: "info_quota_exceeded",
      params: { limit: e.limit, day: e.day }
    }),
  InsufficientBalance: (e) =>
    new Conflict({
      detail: `Insufficient balance: ${e.required} UZS required, ${e.balance} UZS available`,
      code: "balance_insufficient",
      params: { required_uzs: e.required, balance_uzs: e.balance }
    }),
  TopupNotFound: () => new NotFound({ detail: "Top-up not found", code: "topup_not_found" }),
  TopupTransitionInvalid: (e) =>
    new Conflict({
      detail: `Top-up is ${e.from}; it cannot become ${e.to}`,
      code: "topup_transition_invalid",
      params: { from: e.from, to: e.to }
    }),
  TopupAmountInvalid: (e) =>
    new BadRequest({
      detail: `Amount must be between ${e.min} and ${e.max} UZS`,
      code: "topup_amount_invalid",
      params: { min_uzs: e.min, max_uzs: e.max }
    }),
  TopupPossibleDuplicate: (e) =>
    new Conflict({
      detail: `Possible duplicate: ${
        e.reason === "SameFile"
          ? `the same receipt file was sent for top-up #${e.duplicateOf}`
          : e.reason === "NearAmount"
            ? `top-up #${e.duplicateOf}, credited to this user at ${e.creditedAt.toISOString()}, is within 1 % or 1,000 UZS of this receipt's ${e.amountUzs} UZS`
            : `top-up #${e.duplicateOf} of ${e.amountUzs} UZS was credited to this user at ${e.creditedAt.toISOString()}`
      }; if this receipt is a second payment, approve again with confirm_duplicate=true`,
      code: "topup_possible_duplicate",
      params: {
        duplicate_of: e.duplicateOf,
        reason: DUPLICATE_REASONS[e.reason],
        amount_uzs: e.amountUzs,
        credited_at: e.creditedAt.toISOString()
      }
    }),
  TopupPayableExhausted: () =>
    new Conflict({
      detail: "Too many pending top-ups of this amount; try again shortly",
      code: "topup_payable_exhausted"
    }),
  ReceiptNotFound: () => new NotFound({ detail: "Receipt not found", code: "receipt_not_found" }),
  ReceiptInvalid: (e) => new BadRequest({ detail: e.message, code: RECEIPT_CODES[e.reason] }),
  OrderNotFound: () => new NotFound({ detail: "Order not found", code: "order_not_found" }),
  OrderTransitionInvalid: (e) =>
    new Conflict({
      detail: `Order is ${e.from}; it cannot become ${e.to}`,
      code: "order_transition_invalid",
      params: { from: e.from, to: e.to }
    }),
  OrderRequestInvalid: (e) => new BadRequest({ detail: e.message, code: ORDER_REQUEST_CODES[e.reason] }),
  TicketNotFound: () => new NotFound({ detail: "Ticket not found", code: "ticket_not_found" }),
  TicketMessageInvalid: (e) =>
    new BadRequest({
      detail: e.message,
      code: e.reason === "Empty" ? "ticket_message_empty" : "ticket_message_too_long"
    }),
  TicketTransitionInvalid: (e) =>
    new Conflict({
      detail: `Ticket is ${e.from}; it cannot become ${e.to}`,
      code: "ticket_transition_invalid",
      params: { from: e.from, to: e.to }
    }),
  PricesInvalid: (e) =>
    new BadRequest({ detail: `${e.field}: ${e.message}`, code: "prices_invalid", params: { field: e.field } }),
  PaymentNotFound: () => new NotFound({ detail: "Payment not found", code: "payment_not_found" }),
  PaymentPossibleDuplicate: (e) =>
    new Conflict({
      detail: `Possible duplicate: receipt top-up #${e.creditedTopupId} of ${e.amountUzs} UZS was credited to the same user without a bank payment, so payment #${e.paymentId} is most likely that money; if it is other money, assign again with confirm_duplicate=true`,
      code: "payment_possible_duplicate",
      params: {
        payment_id: e.paymentId,
        topup_id: e.topupId,
        credited_topup_id: e.creditedTopupId,
        amount_uzs: e.amountUzs
      }
    }),
  PaymentAlreadyMatched: () =>
    new Conflict({ detail: "Payment already matched a top-up", code: "payment_already_matched" }),
  PaymentInvalid: (e) => new BadRequest({ detail: e.message, code: "payment_invalid", params: { field: e.reason } }),
  IdempotencyKeyConflict: (e) =>
    e.reason === "OtherEndpoint"
      ? new Conflict({
          detail: "Idempotency-Key was already used for another endpoint; use a new key for each request",
          code: "idempotency_key_endpoint_mismatch"
        })
      : new Conflict({
          detail: "Idempotency-Key was already used with a different request",
          code: "idempotency_key_reused"
        }),
  IdempotencyKeyInProgress: () =>
    new Conflict({
      detail: "A request with this Idempotency-Key is still being processed; retry shortly",
      code: "idempotency_key_in_progress",
      params: { retry_after_seconds: IN_PROGRESS_RETRY_SECONDS }
    }),
  IdempotencyKeyInvalid: (e) => new BadRequest({ detail: e.message, code: "idempotency_key_invalid" }),
  GiftNotFound: () => new NotFound({ detail: "Gift not found", code: "gift_not_found" }),
  GiftCatalogUnavailable: (e) => new ServiceUnavailable({ detail: e.message, code: "gift_catalog_unavailable" }),
  MarketplaceError: (e) =>
    e.reason === "RecipientNotFound"
      ? new NotFound({ detail: "Username not found", code: "username_not_found" })
      : e.reason === "Rejected" || e.reason === "AlreadySubscribed"
        ? new BadRequest({ detail: e.message, code: "marketplace_rejected", params: { reason: e.reason } })
        : new ServiceUnavailable({
            detail: "Marketplace is unavailable; try again later",
            code: "marketplace_unavailable"
          }),
  AccountCapReached: accountCapAnswer,
  PushSubscriptionInvalid: (e) =>
    e.reason === "OwnedByAnother"
      ? new Conflict({ detail: `Push subscription refused: ${e.message}`, code: "push_subscription_taken" })
      : new BadRequest({ detail: `Push subscription refused: ${e.message}`, code: "push_subscription_invalid" }),
  WebhookEndpointInvalid: (e) =>
    e.reason === "TooMany"
      ? new Conflict({
          detail: `Webhook refused: ${e.message}`,
          code: "webhook_endpoints_limit",
          params: { limit: MAX_ENDPOINTS_PER_USER }
        })
      : new BadRequest({
          detail: `Webhook refused: ${e.message}`,
          code: e.reason === "UrlRefused" ? "webhook_url_refused" : "webhook_events_invalid",
          params:
            e.reason === "UrlRefused"
              ? { field: "url", ...(e.refusal === undefined ? {} : { reason: e.refusal }) }
              : { field: "events" }
        }),
  WebhookEndpointNotFound: (e) =>
    new NotFound({ detail: "Webhook endpoint not found", code: "webhook_not_found", params: { id: e.endpointId } }),
  WebhookTestsPending: (e) =>
    new TooManyRequests({
      detail: `At most ${e.limit} test events may wait per webhook endpoint; try again when one is delivered`,
      code: "webhook_tests_pending",
      params: { id: e.endpointId, limit: e.limit, retry_after_seconds: e.retryAfterSeconds }
    })
}

/** How long a client should wait before repeating a request whose key is still being processed. */
export const IN_PROGRESS_RETRY_SECONDS = 2

const isHttpError = (e: unknown): e is HandlerError =>
  e instanceof BadRequest ||
  e instanceof Conflict ||
  e instanceof Forbidden ||
  e instanceof NotFound ||
  e instanceof ServiceUnavailable ||
  e instanceof TooManyRequests

const isDomainError = (e: unknown): e is DomainError =>
  typeof e === "object" &&
  e !== null &&
  typeof (e as { _tag?: unknown })._tag === "string" &&
  Object.hasOwn(MAPPING, (e as { _tag: string })._tag)

/** The HTTP answer of a handler or domain error; `undefined` for anything else (a defect). */
export const toHttpError = (error: unknown): HandlerError | undefined => {
  if (isHttpError(error)) return error
  if (!isDomainError(error)) return undefined
  return (MAPPING[error._tag] as (e: DomainError) => HandlerError)(error)
}

const withRequestId = (error: ServiceUnavailable, requestId: string): ServiceUnavailable =>
  requestId === ""
    ? error
    : new ServiceUnavailable({
        detail: error.detail,
        code: error.code,
        ...(error.params === undefined ? {} : { params: error.params }),
        request_id: requestId
      })

/** Seconds a client should wait before retrying this answer, if it is a retry-later one. */
export const retryAfterSeconds = (error: HandlerError, now: number): number | undefined =>
  error.code === "idempotency_key_in_progress"
    ? IN_PROGRESS_RETRY_SECONDS
    : error.code === "info_quota_exceeded"
      ? secondsToMidnightUtc(now)
      : error instanceof TooManyRequests && typeof error.params?.["retry_after_seconds"] === "number"
        ? error.params["retry_after_seconds"]
        : error instanceof TooManyRequests
          ? 1
          : undefined

/**
 * Maps a use case's errors to HTTP answers. Only mapped domain errors and HTTP errors may reach it
 * (the compiler checks `E`); a defect stays a defect (500 with the request id).
 */
export const mapErrors = <A, E extends DomainError | HandlerError, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, HandlerError, R> =>
  Effect.catch(effect, (error: E) =>
    Effect.gen(function* () {
      const mapped = toHttpError(error)
      if (mapped === undefined) return yield* Effect.die(error)
      const after = retryAfterSeconds(mapped, yield* Clock.currentTimeMillis)
      if (after !== undefined) yield* retryAfter(after)
      // A server-side failure names the request, so a report can be matched to the logs.
      if (mapped instanceof ServiceUnavailable) return yield* Effect.fail(withRequestId(mapped, yield* RequestId))
      return yield* Effect.fail(mapped)
    })
  )
