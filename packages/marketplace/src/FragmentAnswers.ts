/**
 * Shapes of Fragment's JSON answers (only the fields we rely on; extra fields are ignored),
 * and the exact decimal-TON reader for init amounts such as "0.4609" or "1,000,000".
 * Every api answer is first read as a JSON object (`ApiAnswer`, its `error` checked by the
 * transport), then as its method's shape (`decodeAnswer`).
 */
import { Effect, Option, Schema } from "effect"
import { MAX_NANOTON, Nanoton, NanotonParseError, parseNanoton as parseTonText } from "@resale/core/money/Nanoton.ts"
import type { MarketplaceError } from "@resale/core/ports/Marketplace.ts"
import { unavailable } from "./FragmentErrors.ts"

const Id = Schema.Union([Schema.String, Schema.Number])

/** Any api answer: a JSON object; `{"error": ...}` is how Fragment refuses (HTTP 200 or 403). */
export const ApiAnswer = Schema.fromJsonString(Schema.Record(Schema.String, Schema.Unknown))
export type FragmentAnswer = typeof ApiAnswer.Type

/** An answer that carries Fragment's own error text (a 403 from Fragment itself, not from an edge). */
export const ErrorAnswer = Schema.fromJsonString(Schema.Struct({ error: Schema.String }))

const decodeApi = Schema.decodeUnknownOption(ApiAnswer)

/** The body of an api answer; not a JSON object (an HTML error page, a truncated body) is transient. */
export const decodeApiAnswer = (method: string, text: string): Effect.Effect<FragmentAnswer, MarketplaceError> =>
  Option.match(decodeApi(text), {
    onNone: () => Effect.fail(unavailable(`Fragment ${method} answered malformed JSON`)),
    onSome: Effect.succeed
  })

/** search*Recipient: `found` is `{}` when nobody matched */
export const SearchAnswer = Schema.Struct({
  found: Schema.Struct({
    recipient: Schema.optionalKey(Schema.String),
    name: Schema.optionalKey(Schema.String),
    photo: Schema.optionalKey(Schema.String),
    myself: Schema.optionalKey(Schema.Boolean)
  })
})

/** init*Request: no `req_id` means the session may not buy */
export const InitAnswer = Schema.Struct({
  req_id: Schema.optionalKey(Id),
  amount: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number])),
  need_ton: Schema.optionalKey(Schema.Boolean)
})

export const LinkMessage = Schema.Struct({
  address: Schema.String,
  amount: Schema.Union([Schema.String, Schema.Number]),
  payload: Schema.String
})

/** get*Link with transaction=1: a TON Connect transaction, or `need_verify`, or `evm` */
export const LinkAnswer = Schema.Struct({
  need_verify: Schema.optionalKey(Schema.Boolean),
  evm: Schema.optionalKey(Schema.Boolean),
  transaction: Schema.optionalKey(
    Schema.Struct({
      validUntil: Schema.Number,
      from: Schema.optionalKey(Schema.String),
      messages: Schema.Array(LinkMessage)
    })
  ),
  confirm_method: Schema.optionalKey(Schema.String),
  confirm_params: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})
export type LinkAnswer = typeof LinkAnswer.Type

/** update*State: the page mode moves new -> processing -> done */
export const StateAnswer = Schema.Struct({
  mode: Schema.optionalKey(Schema.String),
  need_update: Schema.optionalKey(Schema.Boolean)
})

/** Decodes one answer; a shape we do not know means Fragment changed or broke (transient). */
export const decodeAnswer = <S extends Schema.Decoder<unknown>>(schema: S, method: string) => {
  const decode = Schema.decodeUnknownOption(schema)
  return (answer: unknown): Effect.Effect<S["Type"], MarketplaceError> =>
    Option.match(decode(answer), {
      onNone: () => Effect.fail(unavailable(`Fragment ${method} answered an unexpected shape`)),
      onSome: Effect.succeed
    })
}

/** Exact decimal TON text (thousands separators allowed) to nanoton; never through floats. */
export const parseDecimalTon = (text: string | number): Nanoton | undefined => {
  const clean = String(text).replaceAll(",", "").replaceAll(" ", "")
  if (!/^\d+(\.\d+)?$/.test(clean)) return undefined
  const parsed = parseTonText(clean)
  return parsed instanceof NanotonParseError ? undefined : parsed
}

/** Whole-number nanoton text as Fragment puts it in `messages[].amount`. */
export const parseNanoton = (text: string | number): Nanoton | undefined => {
  const clean = String(text)
  if (!/^\d{1,19}$/.test(clean) || BigInt(clean) > MAX_NANOTON) return undefined
  return Nanoton.make(BigInt(clean))
}
