import { Effect, Schema, SchemaIssue } from "effect"
import type { ValidationErrorItem } from "../api/Errors.ts"

/**
 * A JSON body decoded by a schema whose parts say which pydantic record they answer: a type, a check
 * or a transformation annotated with `refusedAs` fails with that record, and `bodyRecords` turns a
 * failed decoding (every field at once, `errors: "all"`) into FastAPI's 422 list in field order.
 */
const RecordKey = "fastapi/record"

interface RecordOf {
  readonly type: string
  readonly msg: string
  readonly ctx?: Readonly<Record<string, unknown>>
}

/** The annotation (of a schema, a check or an issue) naming the pydantic record its refusal is. */
export const refusedAs = (type: string, msg: string, ctx?: RecordOf["ctx"]) => ({
  [RecordKey]: ctx === undefined ? { type, msg } : { type, msg, ctx }
})

const recordIn = (annotations: { readonly [key: string]: unknown } | undefined): RecordOf | undefined =>
  annotations?.[RecordKey] as RecordOf | undefined

/** The record an issue node names itself, if any. */
const ownRecord = (issue: SchemaIssue.Issue): RecordOf | undefined => {
  switch (issue._tag) {
    case "InvalidValue":
      return recordIn(issue.annotations)
    case "Filter":
      return recordIn(issue.filter.annotations)
    // The value is not of the schema's type (a field's, or the body's own for a body that is no object).
    case "InvalidType":
    case "AnyOf":
    case "OneOf":
      return recordIn(issue.ast.annotations)
    default:
      return undefined
  }
}

const format = SchemaIssue.makeFormatterDefault()

/**
 * FastAPI's records of a failed decoding, each located under `place` (`body`, `query`, ...) with
 * `inputAt` giving the client's value at a field's path (for a missing field, the object it is
 * missing from). A refusal nobody named gets pydantic's generic `value_error` with the schema's words.
 */
export const issueRecords = (
  issue: SchemaIssue.Issue,
  place: string,
  inputAt: (path: ReadonlyArray<PropertyKey>, missing: boolean) => unknown,
  generic: (words: string) => string = (words) => `Value error, ${words}`
): Array<ValidationErrorItem> => {
  const out: Array<ValidationErrorItem> = []
  const walk = (path: ReadonlyArray<PropertyKey>, i: SchemaIssue.Issue): void => {
    const loc = [place, ...path.map(String)]
    const record = ownRecord(i)
    if (record !== undefined) {
      const input = inputAt(path, false)
      out.push({ type: record.type, loc, msg: record.msg, input, ...(record.ctx ? { ctx: record.ctx } : {}) })
      return
    }
    switch (i._tag) {
      case "Pointer":
        return walk([...path, ...i.path], i.issue)
      case "Composite":
      case "AnyOf":
        if (i.issues.length > 0) return i.issues.forEach((x) => walk(path, x))
        break
      case "Encoding":
      case "Filter":
        return walk(path, i.issue)
      case "MissingKey":
        out.push({ type: "missing", loc, msg: "Field required", input: inputAt(path, true) })
        return
    }
    out.push({ type: "value_error", loc, msg: generic(format(i)), input: inputAt(path, false) })
  }
  walk([], issue)
  return out
}

/** A JSON body's records: the `input` is what the client sent at its place (the whole body for a missing field). */
export const bodyRecords = (body: unknown, issue: SchemaIssue.Issue): Array<ValidationErrorItem> =>
  issueRecords(issue, "body", (path, missing) =>
    missing || path.length === 0 ? body : (body as Record<PropertyKey, unknown>)[path[0]!]
  )

/** Decodes `body` with every field checked, or fails with FastAPI's records of why not. */
export const decodeBody = <S extends Schema.Constraint>(schema: S, body: unknown) =>
  Schema.decodeUnknownEffect(schema)(body, { errors: "all" }).pipe(
    Effect.mapError((error) => bodyRecords(body, error.issue))
  )
