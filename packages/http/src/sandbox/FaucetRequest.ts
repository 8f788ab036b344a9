/**
 * The body of `POST /v2/api/admin/sandbox/fund`: `{"address": "<TON address>", "amount_ton": "1.5" | 1.5}`,
 * decoded by the schema `faucetBody` with every invalid field at once, in FastAPI's 422 records like
 * the rest of `/v2` (`validation/SchemaRecords.ts`). The amount is converted exactly from its
 * decimal text (a JSON number through its shortest round-trip text), never through float arithmetic.
 */
import {
  formatTon,
  type Nanoton,
  Nanoton as NanotonSchema,
  NanotonParseError,
  parseNanoton,
  parseNanotonNumber
} from "@resale/core/money/Nanoton.ts"
import { Effect, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"
import type { ValidationErrorItem } from "../api/Errors.ts"
import { refusedAs } from "@resale/wire/SchemaRecords.ts"
import { decodeBody } from "../validation/SchemaRecords.ts"

export interface FaucetRequest {
  readonly address: string
  readonly amount: Nanoton
}

export type FaucetParse =
  | { readonly _tag: "Valid"; readonly request: FaucetRequest }
  | { readonly _tag: "Invalid"; readonly detail: ReadonlyArray<ValidationErrorItem> }

/** One faucet call may send at most this much (the emulator's coins are free, but a typo of 10^15 is not useful). */
export const MAX_FAUCET_NANOTON = 1_000_000_000n * 1_000_000_000n

const GREATER_THAN_0 = refusedAs("greater_than", "Input should be greater than 0", { gt: 0 })

/** pydantic's `condecimal(gt=0, le=10**9, decimal_places=9)`, read exactly into nanoton. */
const AmountTon = Schema.Union([Schema.String, Schema.Number])
  .annotate(refusedAs("decimal_type", "Decimal input should be an integer, float, string or Decimal object"))
  .pipe(
    Schema.decodeTo(
      NanotonSchema.check(
        Schema.isGreaterThanBigInt(0n, GREATER_THAN_0),
        Schema.isLessThanOrEqualToBigInt(
          MAX_FAUCET_NANOTON,
          refusedAs("less_than_equal", "Input should be less than or equal to 1000000000", { le: 1_000_000_000 })
        )
      ),
      SchemaTransformation.transformEffect({
        decode: (raw: string | number) => {
          const parsed = typeof raw === "string" ? parseNanoton(raw) : parseNanotonNumber(raw)
          if (!(parsed instanceof NanotonParseError)) return Effect.succeed(parsed)
          const record =
            parsed.reason === "TooManyDecimals"
              ? refusedAs("decimal_max_places", "Decimal input should have no more than 9 decimal places", {
                  decimal_places: 9
                })
              : parsed.reason === "Negative"
                ? GREATER_THAN_0
                : refusedAs("decimal_parsing", "Input should be a valid decimal")
          return Effect.fail(new SchemaIssue.InvalidValue(record, raw))
        },
        encode: (amount: bigint) => Effect.succeed(formatTon(amount))
      })
    )
  )

/**
 * The faucet's body. `checkAddress` normalizes an address (sent trimmed) or says why it is not one:
 * the chain adapter decides what a valid address is, refused as a validator's `value_error`.
 */
const faucetBody = (checkAddress: (address: string) => Effect.Effect<string, { readonly message: string }>) =>
  Schema.Struct({
    address: Schema.String.annotate(refusedAs("string_type", "Input should be a valid string")).pipe(
      Schema.decodeTo(
        Schema.String,
        SchemaTransformation.transformEffect({
          decode: (raw: string) =>
            checkAddress(raw.trim()).pipe(
              Effect.mapError(
                (refused) =>
                  new SchemaIssue.InvalidValue(
                    refusedAs("value_error", `Value error, ${refused.message}`, { error: {} }),
                    raw
                  )
              )
            ),
          encode: (address: string) => Effect.succeed(address)
        })
      )
    ),
    amount_ton: AmountTon
  }).annotate(refusedAs("model_attributes_type", "Input should be a valid dictionary or object to extract fields from"))

/** The body text as JSON, or FastAPI's record of why it is none. */
const jsonOf = (text: string): Result.Result<unknown, ReadonlyArray<ValidationErrorItem>> => {
  if (text.trim() === "") return Result.fail([{ type: "missing", loc: ["body"], msg: "Field required", input: null }])
  try {
    return Result.succeed(JSON.parse(text))
  } catch {
    // JSON.parse's message quotes the input: report only that it broke, as FastAPI does.
    return Result.fail([
      { type: "json_invalid", loc: ["body", 0], msg: "JSON decode error", input: {}, ctx: { error: "Expecting value" } }
    ])
  }
}

/** Parses the raw body text (already size-checked) with `faucetBody`. */
export const parseFaucetRequest = (
  text: string,
  checkAddress: (address: string) => Effect.Effect<string, { readonly message: string }>
): Effect.Effect<FaucetParse> => {
  const json = jsonOf(text)
  if (Result.isFailure(json)) return Effect.succeed({ _tag: "Invalid", detail: json.failure })
  return decodeBody(faucetBody(checkAddress), json.success).pipe(
    Effect.match({
      onFailure: (detail): FaucetParse => ({ _tag: "Invalid", detail }),
      onSuccess: ({ address, amount_ton }): FaucetParse => ({ _tag: "Valid", request: { address, amount: amount_ton } })
    })
  )
}
