import { Schema } from "effect"

/**
 * Every machine `code` a /v2 error body may carry: a closed, stable set (clients and the web pages
 * switch on it; the English `detail` beside it may be reworded). Adding a code here makes the
 * compiler ask for its translations (web/i18n); its row's neighbours in docs/api.md (Errors) stay in this order.
 */
export const ERROR_CODES = [
  // authentication and the edge
  "not_authenticated",
  "api_key_missing",
  "api_key_invalid",
  "admin_token_missing",
  "admin_token_invalid",
  "cross_site_refused",
  "telegram_login_invalid",
  "telegram_login_stale",
  "secret_token_invalid",
  "not_found",
  "method_not_allowed",
  "body_unreadable",
  "payload_too_large",
  "rate_limited",
  "internal_error",
  "database_unavailable",
  "validation_error",
  "request_refused",
  // accounts
  "user_not_found",
  "tier_unknown",
  "tier_not_upgrade",
  "info_quota_exceeded",
  "balance_insufficient",
  // top-ups and receipts
  "topup_not_found",
  "topup_transition_invalid",
  "topup_amount_invalid",
  "topup_possible_duplicate",
  "topup_payable_exhausted",
  "receipt_not_found",
  "receipt_type_unsupported",
  "receipt_too_large",
  "receipt_empty",
  // caps per account (409: too many open at once; 429: too many in 24 hours)
  "account_cap_open_topups",
  "account_cap_open_reviews",
  "account_cap_topups_per_day",
  "account_cap_cancels_per_day",
  "account_cap_uploads_per_day",
  "account_cap_tickets_per_day",
  // orders
  "order_not_found",
  "order_transition_invalid",
  "stars_amount_too_small",
  "stars_amount_too_large",
  "premium_duration_invalid",
  "username_invalid",
  "gift_invalid",
  "comment_invalid",
  "sender_account_invalid",
  "gift_not_found",
  "gift_catalog_unavailable",
  "username_not_found",
  "marketplace_rejected",
  "marketplace_unavailable",
  // tickets
  "ticket_not_found",
  "ticket_message_empty",
  "ticket_message_too_long",
  "ticket_transition_invalid",
  // operator
  "prices_invalid",
  "payment_not_found",
  "payment_possible_duplicate",
  "payment_already_matched",
  "payment_invalid",
  // paging and push
  "page_invalid",
  "push_subscription_invalid",
  "push_subscription_taken",
  // integrators' webhooks
  "webhook_url_refused",
  "webhook_events_invalid",
  "webhook_endpoints_limit",
  "webhook_not_found",
  "webhook_tests_pending",
  // idempotency
  "idempotency_key_invalid",
  "idempotency_key_reused",
  "idempotency_key_endpoint_mismatch",
  "idempotency_key_in_progress"
] as const

export const ErrorCode = Schema.Literals(ERROR_CODES).annotate({
  identifier: "ErrorCode",
  description: "Stable machine code of the error; the `detail` text beside it may change."
})
export type ErrorCode = typeof ErrorCode.Type

/** Values a client may need to act on the error (amounts in UZS, ids, states), by name. */
export const ErrorParams = Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Number]))
export type ErrorParams = typeof ErrorParams.Type
