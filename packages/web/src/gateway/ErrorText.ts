import type { ErrorCode } from "@resale/wire/ErrorCodes.ts"
import type { MessageKey } from "../i18n/en.ts"
import { MESSAGE_PARAM, MONEY_PARAM, type Params, SIZE_PARAM } from "../i18n/Translate.ts"
import type { FlashLine } from "./WebCookies.ts"

/**
 * The API's error answers turned into sentences in the user's language, by their machine `code`
 * (`{"detail", "code", "params"}`) or FastAPI's 422 list. `LINES` has an entry for every code: a
 * code added to the API without words here fails the type check. A body without a code (a proxy's
 * page, a detail nobody foresaw) is shown by its status, or as the words it is.
 */
type ErrorParams = Readonly<Record<string, string | number>>

const line = (key: MessageKey, params?: Params): FlashLine => (params ? { key, params } : { key })

/** Money and states inside a message stay references until the page renders them in the reader's language. */
const money = (value: string | number | undefined): string => `${MONEY_PARAM}${value ?? 0}`
const state = (kind: "topup" | "order" | "ticket", value: string | number | undefined): string =>
  `${MESSAGE_PARAM}status.${kind}.${value ?? ""}`
const text = (value: string | number | undefined): string => String(value ?? "")
/** Whole hours (rounded up) until a daily cap frees up. */
const hours = (p: ErrorParams): number => Math.max(1, Math.ceil(Number(p["retry_after_seconds"] ?? 86_400) / 3600))

const LINES: { readonly [C in ErrorCode]: (p: ErrorParams) => FlashLine } = {
  not_authenticated: () => line("error.signIn"),
  api_key_missing: () => line("error.apiKey"),
  api_key_invalid: () => line("error.apiKey"),
  admin_token_missing: () => line("error.adminToken"),
  admin_token_invalid: () => line("error.adminToken"),
  cross_site_refused: () => line("error.crossSite"),
  telegram_login_invalid: () => line("error.telegramLogin"),
  telegram_login_stale: () => line("error.telegramLogin"),
  secret_token_invalid: () => line("error.generic"),
  not_found: () => line("error.notFound"),
  method_not_allowed: () => line("error.generic"),
  body_unreadable: () => line("error.generic"),
  payload_too_large: () => line("error.receiptLarge"),
  rate_limited: () => line("error.tooMany"),
  internal_error: () => line("error.server"),
  database_unavailable: () => line("error.database"),
  // A 422 body is read by its `detail` list above; a coded refusal nobody foresaw is generic.
  validation_error: () => line("error.generic"),
  request_refused: () => line("error.generic"),
  user_not_found: () => line("error.notFoundThing"),
  tier_unknown: () => line("error.tierUnknown"),
  tier_not_upgrade: () => line("error.tierNotUpgrade"),
  info_quota_exceeded: () => line("error.quota"),
  balance_insufficient: (p) =>
    line("error.insufficient", { required: money(p["required_uzs"]), balance: money(p["balance_uzs"]) }),
  topup_not_found: () => line("error.topupNotFound"),
  // The same state twice (a second click, two operators at once) is no conflict to explain: say it is done.
  topup_transition_invalid: (p) =>
    p["from"] === p["to"]
      ? line("error.topupAlready", { state: state("topup", p["from"]) })
      : line("error.topupState", { from: state("topup", p["from"]), to: state("topup", p["to"]) }),
  topup_amount_invalid: (p) => line("error.amountRange", { min: money(p["min_uzs"]), max: money(p["max_uzs"]) }),
  topup_possible_duplicate: (p) =>
    p["reason"] === "same_file"
      ? line("error.possibleDuplicateFile", { id: text(p["duplicate_of"]) })
      : line(p["reason"] === "near_amount" ? "error.possibleDuplicateNear" : "error.possibleDuplicate", {
          id: text(p["duplicate_of"]),
          amount: money(p["amount_uzs"])
        }),
  topup_payable_exhausted: () => line("error.payableExhausted"),
  receipt_not_found: () => line("error.notFoundThing"),
  receipt_type_unsupported: () => line("error.receiptType"),
  receipt_too_large: () => line("error.receiptLarge"),
  receipt_empty: () => line("error.receiptEmpty"),
  account_cap_open_topups: (p) => line("error.capOpenTopups", { limit: text(p["limit"]) }),
  account_cap_open_reviews: (p) => line("error.capOpenReviews", { limit: text(p["limit"]) }),
  account_cap_topups_per_day: (p) => line("error.capTopupsPerDay", { limit: text(p["limit"]), n: hours(p) }),
  account_cap_cancels_per_day: (p) => line("error.capCancelsPerDay", { limit: text(p["limit"]), n: hours(p) }),
  account_cap_uploads_per_day: (p) => line("error.capUploadsPerDay", { limit: text(p["limit"]), n: hours(p) }),
  account_cap_tickets_per_day: (p) => line("error.capTicketsPerDay", { limit: text(p["limit"]), n: hours(p) }),
  order_not_found: () => line("error.notFoundThing"),
  order_transition_invalid: (p) =>
    line("error.orderState", { from: state("order", p["from"]), to: state("order", p["to"]) }),
  stars_amount_too_small: () => line("error.starsMin"),
  stars_amount_too_large: () => line("error.starsMax"),
  premium_duration_invalid: () => line("error.duration"),
  username_invalid: () => line("error.username"),
  gift_invalid: () => line("error.giftNotFound"),
  comment_invalid: () => line("error.comment"),
  sender_account_invalid: () => line("error.senderAccount"),
  gift_not_found: () => line("error.giftNotFound"),
  gift_catalog_unavailable: () => line("error.marketplace"),
  username_not_found: () => line("error.usernameNotFound"),
  marketplace_rejected: (p) => line("error.rejected", { reason: text(p["reason"]) }),
  marketplace_unavailable: () => line("error.marketplace"),
  ticket_not_found: () => line("error.notFoundThing"),
  ticket_message_empty: () => line("error.messageEmpty"),
  ticket_message_too_long: () => line("error.messageLong"),
  ticket_transition_invalid: (p) => line("error.ticketState", { from: state("ticket", p["from"]) }),
  prices_invalid: () => line("error.prices"),
  payment_not_found: () => line("error.notFoundThing"),
  payment_possible_duplicate: (p) =>
    line("error.paymentPossibleDuplicate", {
      id: text(p["credited_topup_id"]),
      amount: money(p["amount_uzs"]),
      payment: text(p["payment_id"])
    }),
  payment_already_matched: () => line("error.paymentMatched"),
  payment_invalid: () => line("error.generic"),
  page_invalid: () => line("error.generic"),
  push_subscription_invalid: () => line("error.pushInvalid"),
  push_subscription_taken: () => line("error.pushInvalid"),
  // API-key only: no page shows them
  webhook_url_refused: () => line("error.generic"),
  webhook_events_invalid: () => line("error.generic"),
  webhook_endpoints_limit: () => line("error.generic"),
  webhook_not_found: () => line("error.notFoundThing"),
  webhook_tests_pending: () => line("error.generic"),
  idempotency_key_invalid: () => line("error.idempotency"),
  idempotency_key_reused: () => line("error.idempotency"),
  idempotency_key_endpoint_mismatch: () => line("error.idempotency"),
  idempotency_key_in_progress: () => line("error.inProgress")
}

const FIELD_KEYS = new Set([
  "amount_uzs",
  "receipt",
  "username",
  "amount",
  "duration",
  "gift_id",
  "comment",
  "subject",
  "body",
  "tier",
  "token",
  "star_price_uzs",
  "premium_3_month_uzs",
  "premium_6_month_uzs",
  "premium_12_month_uzs",
  "admin_note",
  "tx_id",
  "topup_id",
  "offset",
  "limit",
  "reason"
])

const fieldParam = (loc: ReadonlyArray<unknown>): string => {
  const name = String(loc[loc.length - 1] ?? "")
  return FIELD_KEYS.has(name) ? `${MESSAGE_PARAM}field.${name}` : name
}

/** One entry of a 422 list: "Amount: enter a whole number." */
const validationLine = (item: { readonly loc?: ReadonlyArray<unknown>; readonly type?: string }): FlashLine => {
  const field = fieldParam(item.loc ?? [])
  if (item.type === "missing") return line("error.fieldMissing", { field })
  if (item.type === "int_parsing" || item.type === "int_from_float" || item.type === "int_type")
    return line("error.fieldInt", { field })
  return line("error.fieldInvalid", { field })
}

const isCode = (value: unknown): value is ErrorCode => typeof value === "string" && Object.hasOwn(LINES, value)

const paramsOf = (value: unknown): ErrorParams =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as ErrorParams) : {}

/** The lines to show for a failure a page met calling core directly, by its machine code. */
/** The lines of FastAPI's 422 list: one per refused field. */
export const refusedLines = (items: ReadonlyArray<{ readonly loc?: ReadonlyArray<unknown>; readonly type?: string }>) =>
  items.map(validationLine)

export const codeLines = (code: ErrorCode, params: ErrorParams = {}): ReadonlyArray<FlashLine> => [LINES[code](params)]

/**
 * The refusal of a large receipt names the limit, which no error body carries (the API's words are
 * fixed): the gateway fills in the receipt limit it was built with (`TopupSettings.receiptMaxBytes`).
 */
export const withReceiptSize = (lines: ReadonlyArray<FlashLine>, bytes: number): ReadonlyArray<FlashLine> =>
  lines.map((shown) =>
    "key" in shown && shown.key === "error.receiptLarge"
      ? line(shown.key, { ...shown.params, size: `${SIZE_PARAM}${bytes}` })
      : shown
  )

/** The lines to show for a failed API answer. */
export const errorLines = (statusCode: number, body: string): ReadonlyArray<FlashLine> => {
  let parsed: { readonly detail?: unknown; readonly code?: unknown; readonly params?: unknown } | undefined
  try {
    const value: unknown = JSON.parse(body)
    parsed = typeof value === "object" && value !== null ? value : undefined
  } catch {
    parsed = undefined
  }
  if (Array.isArray(parsed?.detail)) return refusedLines(parsed.detail as never)
  if (isCode(parsed?.code)) return [LINES[parsed.code](paramsOf(parsed.params))]
  if (typeof parsed?.detail === "string" && parsed.detail !== "") return [{ text: parsed.detail }]
  if (statusCode === 401) return [line("error.signIn")]
  if (statusCode === 404) return [line("error.notFound")]
  if (statusCode === 429) return [line("error.tooMany")]
  if (statusCode >= 500) return [line("error.server")]
  return [line("error.generic")]
}
