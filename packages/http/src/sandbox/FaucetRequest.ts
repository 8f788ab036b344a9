/**
 * The body of `POST /v2/api/admin/sandbox/fund`: `{"address": "<TON address>", "amount_ton": "1.5" | 1.5}`.
 * Checked field by field so every invalid part is reported at once, in FastAPI's 422 records, like the
 * rest of `/v2`. The amount is converted exactly from its decimal text (a JSON number through its
 * shortest round-trip text), never through float arithmetic.
 */
import { type Nanoton, NanotonParseError, parseNanoton, parseNanotonNumber } from "@resale/core/money/Nanoton.ts"
import { Effect, Result } from "effect"
import type { ValidationErrorItem } from "../api/Errors.ts"

export interface FaucetRequest {
  readonly address: string
  readonly amount: Nanoton
}

export type FaucetParse =
  | { readonly _tag: "Valid"; readonly request: FaucetRequest }
  | { readonly _tag: "Invalid"; readonly detail: ReadonlyArray<ValidationErrorItem> }

/** One faucet call may send at most this much (the emulator's coins are free, but a typo of 10^15 is not useful). */
export const MAX_FAUCET_NANOTON = 1_000_000_000n * 1_000_000_000n

const invalid = (detail: ReadonlyArray<ValidationErrorItem>): FaucetParse => ({ _tag: "Invalid", detail })

/** The amount in nanoton, or the record of why it is not one. */
const amountOf = (raw: unknown): ValidationErrorItem | Nanoton => {
  const loc = ["body", "amount_ton"]
  const input = raw
  if (typeof raw !== "string" && typeof raw !== "number") {
    return {
      type: "decimal_type",
      loc,
      msg: "Decimal input should be an integer, float, string or Decimal object",
      input
    }
  }
  const parsed = typeof raw === "string" ? parseNanoton(raw) : parseNanotonNumber(raw)
  if (parsed instanceof NanotonParseError) {
    return parsed.reason === "TooManyDecimals"
      ? {
          type: "decimal_max_places",
          loc,
          msg: "Decimal input should have no more than 9 decimal places",
          input,
          ctx: { decimal_places: 9 }
        }
      : parsed.reason === "Negative"
        ? { type: "greater_than", loc, msg: "Input should be greater than 0", input, ctx: { gt: 0 } }
        : { type: "decimal_parsing", loc, msg: "Input should be a valid decimal", input }
  }
  if (parsed === 0n) return { type: "greater_than", loc, msg: "Input should be greater than 0", input, ctx: { gt: 0 } }
  if (parsed > MAX_FAUCET_NANOTON) {
    return {
      type: "less_than_equal",
      loc,
      msg: "Input should be less than or equal to 1000000000",
      input,
      ctx: { le: 1_000_000_000 }
    }
  }
  return parsed
}

/** The body as a JSON object, or FastAPI's record of why it is not one. */
const objectOf = (text: string): Result.Result<Record<string, unknown>, ReadonlyArray<ValidationErrorItem>> => {
  if (text.trim() === "") return Result.fail([{ type: "missing", loc: ["body"], msg: "Field required", input: null }])
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    // JSON.parse's message quotes the input: report only that it broke, as FastAPI does.
    return Result.fail([
      { type: "json_invalid", loc: ["body", 0], msg: "JSON decode error", input: {}, ctx: { error: "Expecting value" } }
    ])
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return Result.fail([
      {
        type: "model_attributes_type",
        loc: ["body"],
        msg: "Input should be a valid dictionary or object to extract fields from",
        input: body
      }
    ])
  }
  return Result.succeed(body as Record<string, unknown>)
}

/**
 * Parses the raw body text (already size-checked). `checkAddress` normalizes an address or says why
 * it is not one (the chain adapter decides what a valid address is).
 */
export const parseFaucetRequest = Effect.fnUntraced(function* (
  text: string,
  checkAddress: (address: string) => Effect.Effect<string, { readonly message: string }>
) {
  const body = objectOf(text)
  if (Result.isFailure(body)) return invalid(body.failure)
  const fields = body.success
  const errors: Array<ValidationErrorItem> = []
  const rawAddress = fields["address"]
  let address: string | undefined
  if (rawAddress === undefined) {
    errors.push({ type: "missing", loc: ["body", "address"], msg: "Field required", input: fields })
  } else if (typeof rawAddress !== "string") {
    errors.push({
      type: "string_type",
      loc: ["body", "address"],
      msg: "Input should be a valid string",
      input: rawAddress
    })
  } else {
    const checked = yield* Effect.result(checkAddress(rawAddress.trim()))
    if (Result.isSuccess(checked)) address = checked.success
    else
      errors.push({
        type: "value_error",
        loc: ["body", "address"],
        msg: `Value error, ${checked.failure.message}`,
        input: rawAddress,
        ctx: { error: {} }
      })
  }
  const rawAmount = fields["amount_ton"]
  let amount: Nanoton | undefined
  if (rawAmount === undefined) {
    errors.push({ type: "missing", loc: ["body", "amount_ton"], msg: "Field required", input: fields })
  } else {
    const checked = amountOf(rawAmount)
    if (typeof checked === "bigint") amount = checked
    else errors.push(checked)
  }
  if (errors.length > 0 || address === undefined || amount === undefined) return invalid(errors)
  return { _tag: "Valid", request: { address, amount } } satisfies FaucetParse
})
