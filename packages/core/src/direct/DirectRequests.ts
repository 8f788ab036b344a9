/**
 * The fields of the four direct requests (and the balance lookup), checked and typed. These are the
 * first checks of every request (DESIGN §8: fields before wallet, funds, marketplace and chain).
 * Messages name the field, never its value: a phrase pasted into the wrong field must not be echoed.
 * The phrase goes into a `Redacted` here and is never copied out of it.
 */
import { Redacted } from "effect"
import { type Nanoton, NanotonParseError, NANOTON_PER_TON, parseNanoton, parseNanotonNumber } from "../money/Nanoton.ts"
import type { PremiumMonths } from "../orders/Order.ts"
import type { WalletVersion } from "../ports/Blockchain.ts"
import {
  COMMENT_MAX,
  type DirectCommon,
  ORDER_ID,
  type PremiumPurchase,
  PREMIUM_MONTHS,
  type StarsPurchase,
  TOPUP_MAX_TON,
  TOPUP_MIN_TON,
  type TonTopupPurchase,
  type TonTransfer,
  USERNAME,
  type WalletInfoRequest
} from "./DirectPurchase.ts"
import { STARS_MAX, STARS_MIN } from "../orders/OrderRules.ts"
import { DirectPurchaseError, invalidRequest } from "./DirectPurchaseError.ts"

export type Fields = Readonly<Record<string, unknown>>

type Parsed<A> = A | DirectPurchaseError

const absent = (value: unknown) => value === undefined || value === null

/** Words of a phrase the way wallets split it: any whitespace or commas, case-insensitive. */
export const phraseWords = (text: string): ReadonlyArray<string> =>
  text
    .normalize("NFKD")
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((w) => w.length > 0)

/** True when `text` contains the phrase's words in order (whatever separates them). */
export const containsPhrase = (text: string, words: ReadonlyArray<string>): boolean => {
  if (words.length === 0) return false
  const tokens = text
    .normalize("NFKD")
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 0)
  for (let i = 0; i + words.length <= tokens.length; i++) {
    if (words.every((w, j) => tokens[i + j] === w)) return true
  }
  return false
}

const seedOf = (
  fields: Fields,
  counts: ReadonlyArray<number>
): Parsed<{ seed: Redacted.Redacted<string>; words: ReadonlyArray<string> }> => {
  const raw = fields["seed"]
  if (absent(raw) || raw === "") return invalidRequest("seed is required: the wallet's mnemonic phrase")
  if (typeof raw !== "string") return invalidRequest("seed must be a string of words separated by spaces")
  const words = phraseWords(raw)
  if (!counts.includes(words.length)) {
    return invalidRequest(`seed must be a mnemonic phrase of ${counts.join(" or ")} words`)
  }
  return { seed: Redacted.make(raw, { label: "mnemonic" }), words }
}

export const orderIdOf = (fields: Fields, words: ReadonlyArray<string>): Parsed<string | undefined> => {
  const raw = fields["order_id"]
  if (absent(raw) || raw === "") return undefined
  if (typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0) return String(raw)
  if (typeof raw !== "string" || !ORDER_ID.test(raw)) {
    return invalidRequest("order_id must be 1 to 128 letters, digits or _ . : -")
  }
  if (containsPhrase(raw, words)) return invalidRequest("order_id must not contain the mnemonic phrase")
  return raw
}

const versionOf = (fields: Fields): Parsed<WalletVersion | undefined> => {
  const raw = fields["wallet_version"] ?? fields["version"]
  if (absent(raw) || raw === "") return undefined
  const text = typeof raw === "string" ? raw.trim().toLowerCase() : ""
  if (text === "v4r2" || text === "v4") return "v4r2"
  if (text === "v5r1" || text === "v5" || text === "w5") return "v5r1"
  return invalidRequest("wallet_version must be v4r2 or v5r1")
}

const commonOf = (
  fields: Fields,
  counts: ReadonlyArray<number>
): Parsed<DirectCommon & { words: ReadonlyArray<string> }> => {
  const seed = seedOf(fields, counts)
  if (seed instanceof DirectPurchaseError) return seed
  const orderId = orderIdOf(fields, seed.words)
  if (orderId instanceof DirectPurchaseError) return orderId
  const walletVersion = versionOf(fields)
  if (walletVersion instanceof DirectPurchaseError) return walletVersion
  return { seed: seed.seed, words: seed.words, orderId, walletVersion }
}

export const usernameOf = (fields: Fields): Parsed<string> => {
  const raw = fields["username"]
  if (absent(raw) || raw === "") return invalidRequest("username is required")
  if (typeof raw !== "string") return invalidRequest("username must be a string")
  // Bots send it as typed, with or without the @.
  const name = raw.trim().replace(/^@/, "")
  if (!USERNAME.test(name)) {
    return invalidRequest("username must be a Telegram username: 4 to 32 letters, digits or _, starting with a letter")
  }
  return name
}

/** Whole numbers as JSON numbers or digit strings; anything else is undefined. */
const wholeNumber = (raw: unknown): number | undefined => {
  if (typeof raw === "number") return Number.isSafeInteger(raw) ? raw : undefined
  if (typeof raw === "string" && /^\s*-?\d{1,16}\s*$/.test(raw)) return Number(raw)
  return undefined
}

/**
 * A JSON number of TON: its shortest decimal text when that has at most 9 decimals (exact), else the
 * float rounded to the nanoton (a client's 0.1 + 0.2 = 0.30000000000000004 is 0.3 TON).
 */
const tonNumber = (n: number): NanotonParseError | Nanoton => {
  const exact = parseNanotonNumber(n)
  if (!(exact instanceof NanotonParseError) || exact.reason !== "TooManyDecimals") return exact
  return parseNanoton(n.toFixed(9))
}

/**
 * TON as a JSON number (see `tonNumber`) or a decimal string, read exactly from its text: a string
 * with more than 9 decimals is refused (it names an amount that cannot be paid).
 */
const tonOf = (raw: unknown, field: string): Parsed<Nanoton> => {
  if (absent(raw) || raw === "") return invalidRequest(`${field} is required`)
  const parsed =
    typeof raw === "number"
      ? tonNumber(raw)
      : typeof raw === "string"
        ? parseNanoton(raw)
        : new NanotonParseError({ reason: "Malformed", message: "" })
  if (parsed instanceof NanotonParseError) {
    return invalidRequest(
      parsed.reason === "TooManyDecimals"
        ? `${field} has more than 9 decimals`
        : parsed.reason === "TooLarge"
          ? `${field} is too large`
          : `${field} must be a positive number of TON`
    )
  }
  if (parsed <= 0n) return invalidRequest(`${field} must be greater than 0`)
  return parsed
}

const withoutWords = <A extends { words: ReadonlyArray<string> }>(a: A): Omit<A, "words"> => {
  const { words: _words, ...rest } = a
  return rest
}

/** The stars quantity of a stars request (`amount`, or `quantity`). */
export const starsQuantityOf = (fields: Fields): Parsed<number> => {
  const raw = fields["amount"] ?? fields["quantity"]
  if (absent(raw) || raw === "") return invalidRequest("amount is required: the number of stars")
  const quantity = wholeNumber(raw)
  if (quantity === undefined) return invalidRequest("amount must be a whole number of stars")
  if (quantity < STARS_MIN) {
    return new DirectPurchaseError({
      reason: "AmountBelowMinimum",
      message: `amount must be at least ${STARS_MIN} stars`
    })
  }
  if (quantity > STARS_MAX) {
    return new DirectPurchaseError({
      reason: "AmountAboveMaximum",
      message: `amount must be at most ${STARS_MAX} stars`
    })
  }
  return quantity
}

/** A parsed field under its name, or the field's error. */
export const named = <K extends string, A>(key: K, parsed: Parsed<A>): Parsed<{ readonly [k in K]: A }> =>
  parsed instanceof DirectPurchaseError ? parsed : ({ [key]: parsed } as { readonly [k in K]: A })

/** A marketplace purchase: the username, then its own field, then the phrase and order id, in that order. */
const purchaseOf = <A extends object>(
  fields: Fields,
  own: (fields: Fields) => Parsed<A>,
  counts: ReadonlyArray<number>
): Parsed<DirectCommon & { readonly username: string } & A> => {
  const username = usernameOf(fields)
  if (username instanceof DirectPurchaseError) return username
  const mine = own(fields)
  if (mine instanceof DirectPurchaseError) return mine
  const common = commonOf(fields, counts)
  if (common instanceof DirectPurchaseError) return common
  return { ...withoutWords(common), username, ...mine }
}

export const parseStars = (fields: Fields): Parsed<StarsPurchase> =>
  purchaseOf(fields, (f) => named("quantity", starsQuantityOf(f)), [12, 24])

/** The months of a premium request (`duration`, or `months`). */
export const premiumMonthsOf = (fields: Fields): Parsed<PremiumMonths> => {
  const raw = fields["duration"] ?? fields["months"]
  if (absent(raw) || raw === "") return invalidRequest("duration is required: 3, 6 or 12 months")
  const months = wholeNumber(raw)
  if (months === undefined || !PREMIUM_MONTHS.includes(months))
    return invalidRequest("duration must be 3, 6 or 12 months")
  return months as PremiumMonths
}

export const parsePremium = (fields: Fields): Parsed<PremiumPurchase> =>
  purchaseOf(fields, (f) => named("months", premiumMonthsOf(f)), [24])

/** The TON of a top-up request: whole TON within the marketplace's limits. */
export const topupAmountOf = (fields: Fields): Parsed<Nanoton> => {
  const amount = tonOf(fields["amount"], "amount")
  if (amount instanceof DirectPurchaseError) return amount
  if (
    amount % NANOTON_PER_TON !== 0n ||
    amount < TOPUP_MIN_TON * NANOTON_PER_TON ||
    amount > TOPUP_MAX_TON * NANOTON_PER_TON
  ) {
    return invalidRequest(`amount must be a whole number of TON from ${TOPUP_MIN_TON} to ${TOPUP_MAX_TON}`)
  }
  return amount
}

export const parseTonTopup = (fields: Fields): Parsed<TonTopupPurchase> =>
  purchaseOf(fields, (f) => named("amount", topupAmountOf(f)), [12, 24])

export const parseTransfer = (fields: Fields): Parsed<TonTransfer> => {
  const rawTo = fields["to"] ?? fields["address"]
  if (absent(rawTo) || rawTo === "") return invalidRequest("to is required: the recipient's wallet address")
  if (typeof rawTo !== "string" || rawTo.length > 100) return invalidRequest("to must be a TON address")
  const amount = tonOf(fields["amount"], "amount")
  if (amount instanceof DirectPurchaseError) return amount
  const common = commonOf(fields, [12, 24])
  if (common instanceof DirectPurchaseError) return common
  const rawComment = fields["comment"]
  let comment: string | undefined
  if (!absent(rawComment) && rawComment !== "") {
    if (typeof rawComment !== "string") return invalidRequest("comment must be a string")
    if (rawComment.length > COMMENT_MAX) return invalidRequest(`comment must be at most ${COMMENT_MAX} characters`)
    // A comment is public on chain forever: never let a phrase go there by mistake.
    if (containsPhrase(rawComment, common.words)) return invalidRequest("comment must not contain the mnemonic phrase")
    comment = rawComment
  }
  return { ...withoutWords(common), to: rawTo.trim(), amount, comment }
}

export const parseWalletInfo = (fields: Fields): Parsed<WalletInfoRequest> => {
  const seed = seedOf(fields, [12, 24])
  if (seed instanceof DirectPurchaseError) return seed
  const walletVersion = versionOf(fields)
  if (walletVersion instanceof DirectPurchaseError) return walletVersion
  return { seed: seed.seed, walletVersion }
}
