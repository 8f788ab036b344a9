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
import type { ErrorCode, ErrorParams } from "@resale/wire/ErrorCodes.ts"
import type { GiftCatalogUnavailable, GiftNotFound } from "./GiftCatalog.ts"

/**
 * What each domain error means to a caller: its status, its words (`detail`, as the original
 * service words it), its machine `code` and the values behind them. Domain errors carry no status.
 * `DomainError` lists every error a JSON handler or a web form may meet, and `ANSWERS` has an entry
 * for each: an error added to a use case and answered nowhere fails the type check, instead of
 * silently becoming a 500. The JSON routes send it as their error body (`http`'s `mapErrors`); the
 * web's forms say its `code` in the reader's words.
 */
export interface DomainAnswer {
  readonly status: 400 | 403 | 404 | 409 | 429 | 503
  readonly detail: string
  readonly code: ErrorCode
  readonly params?: ErrorParams
}

const answer = (status: DomainAnswer["status"], body: Omit<DomainAnswer, "status">): DomainAnswer => ({
  status,
  ...body
})

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

type Answers = { readonly [E in DomainError as E["_tag"]]: (error: E) => DomainAnswer }

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

const CAP_ANSWERS: Record<AccountCapReached["reason"], { readonly code: ErrorCode; readonly what: string }> = {
  OpenCardTopups: { code: "account_cap_open_topups", what: "card top-ups waiting for payment at once" },
  OpenReviews: { code: "account_cap_open_reviews", what: "receipts under review at once" },
  TopupsPerDay: { code: "account_cap_topups_per_day", what: "top-ups per 24 hours" },
  CancelsPerDay: { code: "account_cap_cancels_per_day", what: "cancelled top-ups per 24 hours" },
  UploadsPerDay: { code: "account_cap_uploads_per_day", what: "receipt uploads per 24 hours" },
  TicketsPerDay: { code: "account_cap_tickets_per_day", what: "support requests per 24 hours" }
}

/** What an account holds at once answers 409; what it does per 24 hours 429, with when the oldest action leaves the window. */
const accountCapAnswer = (e: AccountCapReached): DomainAnswer => {
  const { code, what } = CAP_ANSWERS[e.reason]
  if (e.retryAfterSeconds === null) {
    return answer(409, {
      detail: `Too many open: at most ${e.limit} ${what}; finish or cancel one first`,
      code,
      params: { limit: e.limit }
    })
  }
  return answer(429, {
    detail: `Daily limit reached: at most ${e.limit} ${what}; try again in ${Math.ceil(e.retryAfterSeconds / 3600)} h`,
    code,
    params: { limit: e.limit, retry_after_seconds: e.retryAfterSeconds }
  })
}

const DUPLICATE_REASONS = { SameFile: "same_file", SameAmount: "same_amount", NearAmount: "near_amount" } as const

/** How long a client should wait before repeating a request whose key is still being processed. */
export const IN_PROGRESS_RETRY_SECONDS = 2

const ANSWERS: Answers = {
  UserNotFound: () => answer(404, { detail: "User not found", code: "user_not_found" }),
  ApiKeyInvalid: () => answer(403, { detail: "Invalid API key", code: "api_key_invalid" }),
  TierUpgradeInvalid: (e) =>
    e.reason === "UnknownTier"
      ? answer(400, {
          detail: `Unknown tier ${e.requested}`,
          code: "tier_unknown",
          params: { requested: e.requested }
        })
      : answer(409, {
          detail: `Tier ${e.requested} is not an upgrade of tier ${e.current}`,
          code: "tier_not_upgrade",
          params: { requested: e.requested, current: e.current }
        }),
  InfoLookupQuotaExceeded: (e) =>
    answer(429, {
      detail: `Daily info lookup quota of ${e.limit} is used up; upgrade the tier for more`,
      code: "info_quota_exceeded",
      params: { limit: e.limit, day: e.day }
    }),
  InsufficientBalance: (e) =>
    answer(409, {
      detail: `Insufficient balance: ${e.required} UZS required, ${e.balance} UZS available`,
      code: "balance_insufficient",
      params: { required_uzs: e.required, balance_uzs: e.balance }
    }),
  TopupNotFound: () => answer(404, { detail: "Top-up not found", code: "topup_not_found" }),
  TopupTransitionInvalid: (e) =>
    answer(409, {
      detail: `Top-up is ${e.from}; it cannot become ${e.to}`,
      code: "topup_transition_invalid",
      params: { from: e.from, to: e.to }
    }),
  TopupAmountInvalid: (e) =>
    answer(400, {
      detail: `Amount must be between ${e.min} and ${e.max} UZS`,
      code: "topup_amount_invalid",
      params: { min_uzs: e.min, max_uzs: e.max }
    }),
  TopupPossibleDuplicate: (e) =>
    answer(409, {
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
    answer(409, {
      detail: "Too many pending top-ups of this amount; try again shortly",
      code: "topup_payable_exhausted"
    }),
  ReceiptNotFound: () => answer(404, { detail: "Receipt not found", code: "receipt_not_found" }),
  ReceiptInvalid: (e) => answer(400, { detail: e.message, code: RECEIPT_CODES[e.reason] }),
  OrderNotFound: () => answer(404, { detail: "Order not found", code: "order_not_found" }),
  OrderTransitionInvalid: (e) =>
    answer(409, {
      detail: `Order is ${e.from}; it cannot become ${e.to}`,
      code: "order_transition_invalid",
      params: { from: e.from, to: e.to }
    }),
  OrderRequestInvalid: (e) => answer(400, { detail: e.message, code: ORDER_REQUEST_CODES[e.reason] }),
  TicketNotFound: () => answer(404, { detail: "Ticket not found", code: "ticket_not_found" }),
  TicketMessageInvalid: (e) =>
    answer(400, {
      detail: e.message,
      code: e.reason === "Empty" ? "ticket_message_empty" : "ticket_message_too_long"
    }),
  TicketTransitionInvalid: (e) =>
    answer(409, {
      detail: `Ticket is ${e.from}; it cannot become ${e.to}`,
      code: "ticket_transition_invalid",
      params: { from: e.from, to: e.to }
    }),
  PricesInvalid: (e) =>
    answer(400, { detail: `${e.field}: ${e.message}`, code: "prices_invalid", params: { field: e.field } }),
  PaymentNotFound: () => answer(404, { detail: "Payment not found", code: "payment_not_found" }),
  PaymentPossibleDuplicate: (e) =>
    answer(409, {
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
    answer(409, { detail: "Payment already matched a top-up", code: "payment_already_matched" }),
  PaymentInvalid: (e) => answer(400, { detail: e.message, code: "payment_invalid", params: { field: e.reason } }),
  IdempotencyKeyConflict: (e) =>
    e.reason === "OtherEndpoint"
      ? answer(409, {
          detail: "Idempotency-Key was already used for another endpoint; use a new key for each request",
          code: "idempotency_key_endpoint_mismatch"
        })
      : answer(409, {
          detail: "Idempotency-Key was already used with a different request",
          code: "idempotency_key_reused"
        }),
  IdempotencyKeyInProgress: () =>
    answer(409, {
      detail: "A request with this Idempotency-Key is still being processed; retry shortly",
      code: "idempotency_key_in_progress",
      params: { retry_after_seconds: IN_PROGRESS_RETRY_SECONDS }
    }),
  IdempotencyKeyInvalid: (e) => answer(400, { detail: e.message, code: "idempotency_key_invalid" }),
  GiftNotFound: () => answer(404, { detail: "Gift not found", code: "gift_not_found" }),
  GiftCatalogUnavailable: (e) => answer(503, { detail: e.message, code: "gift_catalog_unavailable" }),
  MarketplaceError: (e) =>
    e.reason === "RecipientNotFound"
      ? answer(404, { detail: "Username not found", code: "username_not_found" })
      : e.reason === "Rejected" || e.reason === "AlreadySubscribed"
        ? answer(400, { detail: e.message, code: "marketplace_rejected", params: { reason: e.reason } })
        : answer(503, {
            detail: "Marketplace is unavailable; try again later",
            code: "marketplace_unavailable"
          }),
  AccountCapReached: accountCapAnswer,
  PushSubscriptionInvalid: (e) =>
    e.reason === "OwnedByAnother"
      ? answer(409, { detail: `Push subscription refused: ${e.message}`, code: "push_subscription_taken" })
      : answer(400, { detail: `Push subscription refused: ${e.message}`, code: "push_subscription_invalid" }),
  WebhookEndpointInvalid: (e) =>
    e.reason === "TooMany"
      ? answer(409, {
          detail: `Webhook refused: ${e.message}`,
          code: "webhook_endpoints_limit",
          params: { limit: MAX_ENDPOINTS_PER_USER }
        })
      : answer(400, {
          detail: `Webhook refused: ${e.message}`,
          code: e.reason === "UrlRefused" ? "webhook_url_refused" : "webhook_events_invalid",
          params:
            e.reason === "UrlRefused"
              ? { field: "url", ...(e.refusal === undefined ? {} : { reason: e.refusal }) }
              : { field: "events" }
        }),
  WebhookEndpointNotFound: (e) =>
    answer(404, { detail: "Webhook endpoint not found", code: "webhook_not_found", params: { id: e.endpointId } }),
  WebhookTestsPending: (e) =>
    answer(429, {
      detail: `At most ${e.limit} test events may wait per webhook endpoint; try again when one is delivered`,
      code: "webhook_tests_pending",
      params: { id: e.endpointId, limit: e.limit, retry_after_seconds: e.retryAfterSeconds }
    })
}

const isDomainError = (e: unknown): e is DomainError =>
  typeof e === "object" &&
  e !== null &&
  typeof (e as { _tag?: unknown })._tag === "string" &&
  Object.hasOwn(ANSWERS, (e as { _tag: string })._tag)

/** The answer of a domain error; `undefined` for anything else (a defect). */
export const domainAnswer = (error: unknown): DomainAnswer | undefined =>
  isDomainError(error) ? (ANSWERS[error._tag] as (e: DomainError) => DomainAnswer)(error) : undefined
