import { OrderId, PaymentId, TicketId, TopupId } from "@resale/core/ids.ts"
import { Effect, Schema, type SchemaAST, SchemaTransformation } from "effect"
import { Multipart } from "effect/http"
import { HttpApiSchema } from "effect/http-api"

/**
 * Field schemas that also tell the request validator which pydantic type the original service
 * declared, so the 422 answers carry pydantic's exact `type` and `msg` (see validation/).
 */
export type FieldKind = "int" | "float" | "str" | "bool" | "file" | "object" | "any"
export const KindKey = "fastapi/kind"

export const kindOf = (annotations: { readonly [k: string]: unknown } | undefined): FieldKind | undefined =>
  annotations?.[KindKey] as FieldKind | undefined

const withKind = <S extends Schema.Top>(schema: S, kind: FieldKind): S["Rebuild"] =>
  schema.annotate({ [KindKey]: kind })

/** pydantic `int`: JSON numbers; the validator turns numeric strings into numbers first (lax mode). */
export const Int = withKind(Schema.Int, "int")
/** pydantic `int` sent inside a multipart form, where every field is text. */
export const IntText = withKind(Schema.FiniteFromString.check(Schema.isInt()), "int")
export const Float = withKind(Schema.Finite, "float")
export const Str = withKind(Schema.String, "str")
export const Bool = withKind(Schema.Boolean, "bool")
export const File = withKind(Multipart.SingleFileSchema, "file")
export const AnyObject = withKind(Schema.Record(Schema.String, Schema.Unknown), "object")
export const AnyJson = withKind(Schema.Unknown, "any")

/** A path id such as `webhook_id`: a positive integer (0 or below is a 422, never a lookup). */
export const Id = withKind(Schema.Int.check(Schema.isGreaterThan(0)), "int")

/**
 * Path ids branded by the contract: the core's own id schemas (a positive integer, so the same 422 as
 * `Id`), decoded straight into `TopupId` / `OrderId` / `TicketId`, so handlers pass them on uncast.
 */
export const TopupIdPath = withKind(TopupId, "int")
export const OrderIdPath = withKind(OrderId, "int")
export const TicketIdPath = withKind(TicketId, "int")
export const PaymentIdPath = withKind(PaymentId, "int")

/** Optional form field that defaults to the empty string, as the spec's forms declare. */
export const StrDefaultEmpty = Str.pipe(Schema.withDecodingDefaultKey(Effect.succeed("")))
export const BoolDefaultFalse = Bool.pipe(Schema.withDecodingDefaultKey(Effect.succeed(false)))
export const IntDefault = (value: number) => Int.pipe(Schema.withDecodingDefaultKey(Effect.succeed(value)))

export const OptionalStr = Schema.optionalKey(Str)

export const ValueRuleKey = "fastapi/value_rule"

/** A rule of a field beyond its type, read by the request validator (`PydanticFields.ts`). */
export interface ValueRule {
  readonly message: string
  readonly test: (value: never) => boolean
}

/**
 * A field's own rule, as a pydantic field validator raising `ValueError(message)`: the request
 * validator answers `value_error` ("Value error, <message>") when the field's value breaks it, with
 * every other field's record; the schema itself refuses the value alike.
 */
export const valueRule = <T>(message: string, test: (value: T) => boolean): SchemaAST.Filter<T> => {
  const rule: ValueRule = { message, test }
  return Schema.makeFilter<T>((value) => test(value) || message, { expected: message, [ValueRuleKey]: rule })
}

/** A form body (urlencoded), as every post of the signed-in web surface. */
export const form = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct(fields).pipe(HttpApiSchema.asFormUrlEncoded())

/**
 * A paging number of the web's own lists (`?offset=`, `?limit=`): digits, else `fallback`; a stray
 * value is ignored, never a 422 (the caller clamps it into its bounds).
 */
export const LenientCount = (fallback: number) =>
  withKind(
    Str.pipe(
      Schema.decodeTo(
        Schema.Number,
        SchemaTransformation.transform({
          decode: (text: string) => (/^\d+$/.test(text) ? Math.min(Number.MAX_SAFE_INTEGER, Number(text)) : fallback),
          encode: (n: number) => String(n)
        })
      )
    ),
    "str"
  ).pipe(Schema.withDecodingDefaultKey(Effect.succeed(String(fallback))))
export const NullableStr = Schema.optionalKey(Schema.NullOr(Str))
export const NullableBool = Schema.optionalKey(Schema.NullOr(Bool))

/** Pages answer JSON by default and HTML when the browser prefers it. */
export const Html = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html" }))
export const page = <S extends Schema.Top>(json: S) => [json, Html] as const

/** Header slot of the programmatic user calls; declared optional as in the spec. */
export const ApiKeyHeader = { "x-api-key": Schema.optionalKey(Str) }
export const AdminTokenHeader = { "x-admin-token": Schema.optionalKey(Str) }
export const IdempotencyHeader = { "idempotency-key": Schema.optionalKey(Str) }
