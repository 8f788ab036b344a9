import { SchemaIssue } from "effect"

/**
 * FastAPI's 422 records of a schema's failed decoding: a type, a check or a transformation annotated
 * with `refusedAs` fails with that pydantic record, and `issueRecords` walks a failed decoding (every
 * field at once, `errors: "all"`) into the list in field order. Here, beside the shapes, so that the
 * JSON routes (`@resale/http` bodies and its router's fallback) and the panel's query filters read one walker.
 */
const RecordKey = "fastapi/record"

/** One refused part of a request, as pydantic 2 records it (FastAPI's 422 list is made of these). */
export interface FieldRecord {
  readonly type: string
  readonly loc: ReadonlyArray<string | number>
  readonly msg: string
  readonly input?: unknown
  readonly ctx?: Readonly<Record<string, unknown>>
}

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
 * `inputAt` giving the value to echo at a field's path (for a missing field, the object it is missing
 * from); `refusing` is the issue that names the record (with `reportInput`, it holds the value its
 * check saw, after the field's own transformations). A refusal nobody named gets pydantic's generic
 * `value_error` with the schema's words.
 */
export const issueRecords = (
  issue: SchemaIssue.Issue,
  place: string,
  inputAt: (path: ReadonlyArray<PropertyKey>, missing: boolean, refusing: SchemaIssue.Issue) => unknown,
  generic: (words: string) => string = (words) => `Value error, ${words}`
): Array<FieldRecord> => {
  const out: Array<FieldRecord> = []
  const walk = (path: ReadonlyArray<PropertyKey>, i: SchemaIssue.Issue): void => {
    const loc = [place, ...path.map(String)]
    const record = ownRecord(i)
    if (record !== undefined) {
      const input = inputAt(path, false, i)
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
        out.push({ type: "missing", loc, msg: "Field required", input: inputAt(path, true, i) })
        return
    }
    out.push({ type: "value_error", loc, msg: generic(format(i)), input: inputAt(path, false, i) })
  }
  walk([], issue)
  return out
}
