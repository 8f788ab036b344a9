/**
 * The fields of the direct requests as schemas: each decodes one field's raw value (JSON or query
 * string) into its typed value, and annotates every way it can fail with the coded answer (see
 * `DirectDecoding`). Messages name the field, never its value: a phrase pasted into the wrong field
 * must not be echoed. The phrase is decoded into a `Redacted` and never copied out of it.
 */
import { Effect, Redacted, Schema, SchemaIssue, SchemaTransformation } from "effect"
import {
  formatTon,
  NANOTON_PER_TON,
  Nanoton,
  NanotonParseError,
  parseNanoton,
  parseNanotonNumber
} from "../money/Nanoton.ts"
import { PremiumMonths } from "../orders/Order.ts"
import { STARS_MAX, STARS_MIN } from "../orders/OrderRules.ts"
import { coded, required } from "./DirectDecoding.ts"
import { COMMENT_MAX, ORDER_ID, TOPUP_MAX_TON, TOPUP_MIN_TON, USERNAME } from "./DirectPurchase.ts"
import { containsPhrase, phraseWords } from "./PhraseWords.ts"

const mapped = <T, E>(decode: (e: E) => T, encode: (t: T) => E) => SchemaTransformation.transform({ decode, encode })

/** Bots send the username as typed, with or without the @. */
export const Username = Schema.String.annotate(coded("username must be a string")).pipe(
  Schema.decodeTo(
    Schema.String.check(
      Schema.isPattern(
        USERNAME,
        coded("username must be a Telegram username: 4 to 32 letters, digits or _, starting with a letter")
      )
    ),
    mapped(
      (typed) => typed.trim().replace(/^@/, ""),
      (name) => name
    )
  ),
  Schema.annotateKey(required("username is required"))
)

const SafeInteger = Schema.Number.check(Schema.makeFilter(Number.isSafeInteger))
const DigitString = Schema.String.check(Schema.isPattern(/^\s*-?\d{1,16}\s*$/)).pipe(
  Schema.decodeTo(Schema.Number, mapped(Number, String))
)

/** A whole number as a JSON number or a digit string (a query string carries only strings). */
const wholeNumber = (message: string) => Schema.Union([SafeInteger, DigitString]).annotate(coded(message))

/** Stars: `amount`, or `quantity`. */
export const StarsQuantity = wholeNumber("amount must be a whole number of stars").pipe(
  Schema.check(
    Schema.isGreaterThanOrEqualTo(STARS_MIN, coded(`amount must be at least ${STARS_MIN} stars`, "AmountBelowMinimum")),
    Schema.isLessThanOrEqualTo(STARS_MAX, coded(`amount must be at most ${STARS_MAX} stars`, "AmountAboveMaximum"))
  ),
  Schema.annotateKey(required("amount is required: the number of stars"))
)

const MONTHS = "duration must be 3, 6 or 12 months"

/** Premium months: `duration`, or `months`. */
export const Months = wholeNumber(MONTHS).pipe(
  Schema.decodeTo(PremiumMonths.annotate(coded(MONTHS))),
  Schema.annotateKey(required("duration is required: 3, 6 or 12 months"))
)

/**
 * A JSON number of TON: its shortest decimal text when that has at most 9 decimals (exact), else the
 * float rounded to the nanoton (a client's 0.1 + 0.2 = 0.30000000000000004 is 0.3 TON).
 */
const tonOfNumber = (n: number): NanotonParseError | Nanoton => {
  const exact = parseNanotonNumber(n)
  if (!(exact instanceof NanotonParseError) || exact.reason !== "TooManyDecimals") return exact
  return parseNanoton(n.toFixed(9))
}

const tonParseMessage = (field: string, reason: NanotonParseError["reason"]) =>
  reason === "TooManyDecimals"
    ? `${field} has more than 9 decimals`
    : reason === "TooLarge"
      ? `${field} is too large`
      : `${field} must be a positive number of TON`

/**
 * TON as a JSON number (see `tonOfNumber`) or a decimal string, read exactly from its text: a string
 * with more than 9 decimals is refused (it names an amount that cannot be paid).
 */
const tonAmount = (field: string) =>
  Schema.Union([Schema.Number, Schema.String]).pipe(
    Schema.annotate(coded(`${field} must be a positive number of TON`)),
    Schema.decodeTo(
      Nanoton.check(Schema.isGreaterThanBigInt(0n, coded(`${field} must be greater than 0`))),
      SchemaTransformation.transformEffect({
        decode: (raw: number | string) => {
          const parsed = typeof raw === "number" ? tonOfNumber(raw) : parseNanoton(raw)
          return parsed instanceof NanotonParseError
            ? Effect.fail(new SchemaIssue.InvalidValue(coded(tonParseMessage(field, parsed.reason))))
            : Effect.succeed(parsed)
        },
        encode: (amount: bigint) => Effect.succeed(formatTon(amount))
      })
    ),
    Schema.annotateKey(required(`${field} is required`))
  )

/** The amount of a transfer: any positive TON, to the nanoton. */
export const TransferAmount = tonAmount("amount")

/** The TON of a top-up: whole TON within the marketplace's limits. */
export const TopupAmount = tonAmount("amount").pipe(
  Schema.check(
    Schema.makeFilter(
      (amount: bigint) =>
        amount % NANOTON_PER_TON === 0n &&
        amount >= TOPUP_MIN_TON * NANOTON_PER_TON &&
        amount <= TOPUP_MAX_TON * NANOTON_PER_TON,
      coded(`amount must be a whole number of TON from ${TOPUP_MIN_TON} to ${TOPUP_MAX_TON}`)
    )
  )
)

const TO = "to must be a TON address"

/** The recipient of a transfer (`to`, or `address`), as given: the service checks it against the chain's rules. */
export const Recipient = Schema.String.annotate(coded(TO)).pipe(
  Schema.check(Schema.isMaxLength(100, coded(TO))),
  Schema.decodeTo(Schema.String, SchemaTransformation.trim()),
  Schema.annotateKey(required("to is required: the recipient's wallet address"))
)

/** The phrase of a wallet, `counts` words long; decoded into a `Redacted` labelled `mnemonic`. */
export const Seed = (counts: ReadonlyArray<number>) =>
  Schema.RedactedFromValue(
    Schema.String.annotate(coded("seed must be a string of words separated by spaces")).check(
      Schema.makeFilter(
        (phrase: string) => counts.includes(phraseWords(phrase).length),
        coded(`seed must be a mnemonic phrase of ${counts.join(" or ")} words`)
      )
    ),
    { label: "mnemonic" }
  ).pipe(Schema.annotateKey(required("seed is required: the wallet's mnemonic phrase")))

const OrderIdNumber = Schema.Number.check(Schema.makeFilter((n: number) => Number.isSafeInteger(n) && n >= 0)).pipe(
  Schema.decodeTo(Schema.String, mapped(String, Number))
)

/** The caller's order id: a non-negative whole JSON number (as its digits) or a string of safe characters. */
export const OrderId = Schema.Union([OrderIdNumber, Schema.String.check(Schema.isPattern(ORDER_ID))]).annotate(
  coded("order_id must be 1 to 128 letters, digits or _ . : -")
)

const VERSION = "wallet_version must be v4r2 or v5r1"
const VERSION_SPELLINGS = { v4r2: "v4r2", v4: "v4r2", v5r1: "v5r1", v5: "v5r1", w5: "v5r1" } as const
type VersionSpelling = keyof typeof VERSION_SPELLINGS

/** The wallet version the caller insists on (`wallet_version`, or `version`), any case, short names too. */
export const Version = Schema.String.annotate(coded(VERSION)).pipe(
  Schema.decodeTo(
    Schema.String,
    mapped(
      (typed) => typed.trim().toLowerCase(),
      (text) => text
    )
  ),
  Schema.decodeTo(Schema.Literals(Object.keys(VERSION_SPELLINGS) as Array<VersionSpelling>).annotate(coded(VERSION))),
  Schema.decodeTo(
    Schema.Literals(["v4r2", "v5r1"]),
    mapped<"v4r2" | "v5r1", VersionSpelling>(
      (spelling) => VERSION_SPELLINGS[spelling],
      (version) => version
    )
  )
)

/** A comment of a transfer: a string of at most COMMENT_MAX characters. */
export const Comment = Schema.String.annotate(coded("comment must be a string")).check(
  Schema.isMaxLength(COMMENT_MAX, coded(`comment must be at most ${COMMENT_MAX} characters`))
)

/** A filter refusing `text` (an order id, a comment) when it holds the phrase's words. */
export const withoutPhrase = <A>(
  of: (a: A) => { readonly seed: Redacted.Redacted<string>; readonly text: string | undefined },
  message: string
) =>
  Schema.makeFilter((a: A) => {
    const { seed, text } = of(a)
    return text === undefined || !containsPhrase(text, phraseWords(Redacted.value(seed)))
  }, coded(message))
