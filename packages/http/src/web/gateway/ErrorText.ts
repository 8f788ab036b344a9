import type { MessageKey } from "../i18n/en.ts"
import { MESSAGE_PARAM, MONEY_PARAM, type Params } from "../i18n/Translate.ts"
import type { FlashLine } from "./WebCookies.ts"

/**
 * The API's error answers (`{"detail": "..."}` or FastAPI's 422 list) turned into sentences in the
 * user's language. The server's English detail is matched against the wordings of
 * handlers/ErrorMapping.ts; a detail nobody foresaw is still shown, as the words it is.
 */
type Rule = readonly [RegExp, (m: RegExpExecArray) => FlashLine]

const line = (key: MessageKey, params?: Params): FlashLine => (params ? { key, params } : { key })
const status = (kind: "topup" | "order" | "ticket", value: string | undefined): { readonly key: string } => ({
  key: `status.${kind}.${value ?? ""}`
})

/** Money and words inside a detail stay references until the page renders them in the reader's language. */
const moneyParam = (amount: string | undefined): string => `${MONEY_PARAM}${amount ?? "0"}`
const STATUS_PREFIX = MESSAGE_PARAM

const CAP_KEYS: Record<string, MessageKey> = {
  "top-ups": "error.capTopupsPerDay",
  "cancelled top-ups": "error.capCancelsPerDay",
  "receipt uploads": "error.capUploadsPerDay",
  "support requests": "error.capTicketsPerDay"
}

const RULES: ReadonlyArray<Rule> = [
  [/^Insufficient balance: (\d+) UZS required, (\d+) UZS available/, (m) =>
    line("error.insufficient", { required: moneyParam(m[1]), balance: moneyParam(m[2]) })],
  [/^Amount must be between (\d+) and (\d+) UZS/, (m) => line("error.amountRange", { min: moneyParam(m[1]), max: moneyParam(m[2]) })],
  [/^Top-up is (\w+); it cannot become (\w+)/, (m) =>
    line("error.topupState", { from: STATUS_PREFIX + status("topup", m[1]).key, to: STATUS_PREFIX + status("topup", m[2]).key })],
  [/^Order is (\w+); it cannot become (\w+)/, (m) =>
    line("error.orderState", { from: STATUS_PREFIX + status("order", m[1]).key, to: STATUS_PREFIX + status("order", m[2]).key })],
  [/^Ticket is (\w+); it cannot become/, (m) => line("error.ticketState", { from: STATUS_PREFIX + status("ticket", m[1]).key })],
  [/^Not authenticated/, () => line("error.signIn")],
  [/^Cross-site request refused/, () => line("error.crossSite")],
  [/^Invalid admin token/, () => line("error.adminToken")],
  [/^(Invalid Telegram login data|Telegram login data is too old)/, () => line("error.telegramLogin")],
  [/^Gift not found/, () => line("error.giftNotFound")],
  [/^Username not found/, () => line("error.usernameNotFound")],
  [/^Marketplace is unavailable/, () => line("error.marketplace")],
  [/^(Receipt is larger than|File too large|the receipt is larger than)/, () => line("error.receiptLarge")],
  [/^the receipt must be an image or a PDF/, () => line("error.receiptType")],
  [/^the receipt file is empty/, () => line("error.receiptEmpty")],
  [/^username must be/, () => line("error.username")],
  [/^amount must be a whole number of at least/, () => line("error.starsMin")],
  [/^amount must be at most/, () => line("error.starsMax")],
  [/^duration must be 3, 6 or 12/, () => line("error.duration")],
  [/^comment must be at most/, () => line("error.comment")],
  [/^the message is empty/, () => line("error.messageEmpty")],
  [/^the (message|subject) is longer than/, () => line("error.messageLong")],
  [/^Unknown tier/, () => line("error.tierUnknown")],
  [/^Tier \d+ is not an upgrade/, () => line("error.tierNotUpgrade")],
  [/^Daily info lookup quota/, () => line("error.quota")],
  [/^(star_price_uzs|premium_\d+_month_uzs|starPriceUzs|premium\d+MonthUzs)\b/, () => line("error.prices")],
  [/^Too many pending top-ups of this amount/, () => line("error.payableExhausted")],
  [/^Idempotency-Key was already used/, () => line("error.idempotency")],
  [/^A request with this Idempotency-Key is still being processed/, () => line("error.inProgress")],
  [/^Payment already matched/, () => line("error.paymentMatched")],
  [/^Possible duplicate: receipt top-up #(\d+) of (\d+) UZS.*payment #(\d+)/, (m) =>
    line("error.paymentPossibleDuplicate", { id: m[1] ?? "", amount: moneyParam(m[2]), payment: m[3] ?? "" })],
  [/^Possible duplicate: the same receipt file was sent for top-up #(\d+)/, (m) => line("error.possibleDuplicateFile", { id: m[1] ?? "" })],
  [/^Possible duplicate: top-up #(\d+), credited to this user at .*? is within .*? of this receipt's (\d+) UZS/, (m) =>
    line("error.possibleDuplicateNear", { id: m[1] ?? "", amount: moneyParam(m[2]) })],
  [/^Too many open top-ups: at most (\d+)/, (m) => line("error.capOpenTopups", { limit: m[1] ?? "" })],
  [/^Too many receipts under review: at most (\d+)/, (m) => line("error.capOpenReviews", { limit: m[1] ?? "" })],
  [/^Daily limit reached: at most (\d+) (top-ups|cancelled top-ups|receipt uploads|support requests) per 24 hours; try again in (\d+) h/, (m) =>
    line(CAP_KEYS[m[2] ?? ""] ?? "error.tooMany", { limit: m[1] ?? "", n: Number(m[3] ?? 1) })],
  [/^Possible duplicate: top-up #(\d+) of (\d+) UZS/, (m) => line("error.possibleDuplicate", { id: m[1] ?? "", amount: moneyParam(m[2]) })],
  [/^(Top-up|Order|Ticket|Receipt|Payment|User) not found/, () => line("error.notFoundThing")],
  [/^Not Found$/, () => line("error.notFound")]
]

const FIELD_KEYS = new Set([
  "amount_uzs", "receipt", "username", "amount", "duration", "gift_id", "comment", "subject", "body", "tier", "token",
  "star_price_uzs", "premium_3_month_uzs", "premium_6_month_uzs", "premium_12_month_uzs", "admin_note", "tx_id", "topup_id",
  "offset", "limit"
])

const fieldParam = (loc: ReadonlyArray<unknown>): string => {
  const name = String(loc[loc.length - 1] ?? "")
  return FIELD_KEYS.has(name) ? `${STATUS_PREFIX}field.${name}` : name
}

/** One entry of a 422 list: "Amount: enter a whole number." */
const validationLine = (item: { readonly loc?: ReadonlyArray<unknown>; readonly type?: string }): FlashLine => {
  const field = fieldParam(item.loc ?? [])
  if (item.type === "missing") return line("error.fieldMissing", { field })
  if (item.type === "int_parsing" || item.type === "int_from_float" || item.type === "int_type") return line("error.fieldInt", { field })
  return line("error.fieldInvalid", { field })
}

export const detailLine = (detail: string): FlashLine => {
  for (const [pattern, make] of RULES) {
    const match = pattern.exec(detail)
    if (match) return make(match)
  }
  return { text: detail }
}

/** The lines to show for a failed API answer. */
export const errorLines = (statusCode: number, body: string): ReadonlyArray<FlashLine> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    parsed = undefined
  }
  const detail = (parsed as { detail?: unknown } | undefined)?.detail
  if (Array.isArray(detail)) return detail.map((item) => validationLine(item as never))
  if (typeof detail === "string" && detail !== "") return [detailLine(detail)]
  if (statusCode === 401) return [line("error.signIn")]
  if (statusCode === 404) return [line("error.notFound")]
  if (statusCode === 429) return [line("error.tooMany")]
  if (statusCode >= 500) return [line("error.server")]
  return [line("error.generic")]
}
