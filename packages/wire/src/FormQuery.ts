import { Effect, Option, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { QueryInvalid } from "./QueryInvalid.ts"
import { issueRecords } from "./SchemaRecords.ts"

/**
 * The operator panel's filter forms read by schemas: each form is a `Schema.Struct` of `formField`s
 * whose checks name their FastAPI record (`refusedAs`), decoded by `queryDecoder` in one place that
 * the JSON route and the page share, so both refuse the same text with the same records.
 */

/** A panel form's fields as sent: text, or nothing. */
export type QueryText = Readonly<Record<string, string | undefined>>

/** What a person types for readability in a number, taken out: "1 000,000" is 1000000. */
export const withoutSeparators = (text: string) => text.replace(/[\s,]/g, "")

/**
 * A form field decoded by `target` when given: absent, undefined and "" (after `normalize`) are
 * all "not given", which the form reads as its default.
 */
export const formField = <T extends Schema.Top & { readonly Encoded: string }>(
  target: T,
  normalize: (text: string) => string = (text) => text
) =>
  Schema.optional(Schema.String).pipe(
    Schema.decodeTo(
      Schema.optionalKey(target),
      SchemaTransformation.transformOptional<T["Encoded"], string | undefined>({
        decode: (sent) =>
          sent.pipe(
            Option.flatMap(Option.fromUndefinedOr),
            Option.map(normalize),
            Option.filter((text) => text !== "")
          ),
        encode: (text) => text
      })
    )
  )

/**
 * The decoder of a panel form's `schema`: every field checked at once, each refusal its FastAPI
 * record echoing the text its check saw (after the field's `normalize`), else the field as sent.
 */
export const queryDecoder = <S extends Schema.Constraint & { readonly DecodingServices: never }>(schema: S) => {
  const decode = Schema.decodeUnknownEffect(schema, { errors: "all", reportInput: true })
  return (text: QueryText): Effect.Effect<S["Type"], QueryInvalid> =>
    decode(text).pipe(
      Effect.mapError(
        (error) =>
          new QueryInvalid({
            refused: issueRecords(error.issue, "query", (path, _missing, refusing) =>
              SchemaIssue.hasInput(refusing) ? refusing.input : (text[String(path[0])] ?? "")
            )
          })
      )
    )
}
