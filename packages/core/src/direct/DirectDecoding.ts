/**
 * How the direct surface decodes a request: its fields as the schema's input (aliases resolved, absent
 * values left out), and the one mapping from the first schema issue to the coded `DirectPurchaseError`.
 * Every field schema (`DirectFields`) annotates each way it can fail with the answer's message (and, for
 * the stars limits, its reason); the mapping only reads those annotations back. Decoding stops at the
 * first issue, so a request schema's declared field order is the order its fields are checked in.
 * Issues never carry the input, and no message holds a field's value.
 */
import { Result, Schema, type SchemaIssue } from "effect"
import { DirectPurchaseError } from "./DirectPurchaseError.ts"

type Reason = DirectPurchaseError["reason"]

/** The annotation key of a failure's reason when it is not `InvalidRequest`. */
const REASON = "directReason"

/** Annotations of one way a field fails: the message answered, and its reason when not `InvalidRequest`. */
export const coded = (message: string, reason?: Reason) =>
  reason === undefined ? { message } : { message, [REASON]: reason }

/** Annotations of a field that is required: what a missing (or null, or empty) value answers. */
export const required = (message: string) => ({ messageMissingKey: message })

export type Fields = Readonly<Record<string, unknown>>

/**
 * The value of the first of `names` that is not null or undefined (aliases, as `a ?? b`); null and ""
 * are absent, the way clients leave a field out.
 */
export const valueOf = (fields: Fields, ...names: ReadonlyArray<string>): unknown => {
  let value: unknown
  for (const name of names) {
    value = fields[name]
    if (value !== undefined && value !== null) break
  }
  return value === null || value === "" ? undefined : value
}

/** A schema's input without its absent fields, so that a required one is reported missing. */
export const present = (input: Readonly<Record<string, unknown>>): Fields =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))

interface Code {
  readonly message: string
  readonly reason: Reason
}

const codeOf = (annotations: Readonly<Record<string, unknown>> | undefined, key = "message"): Code | undefined => {
  const message = annotations?.[key]
  if (typeof message !== "string") return undefined
  const reason = annotations?.[REASON]
  return { message, reason: typeof reason === "string" ? (reason as Reason) : "InvalidRequest" }
}

/**
 * The deepest coded annotation on the first path through the issue: a check's own message wins over
 * the shape it refines. A union that no accepted shape matched answers the union's message.
 */
const firstCode = (issue: SchemaIssue.Issue): Code | undefined => {
  switch (issue._tag) {
    case "Pointer":
      return firstCode(issue.issue)
    case "Encoding":
      return firstCode(issue.issue) ?? codeOf(issue.ast.annotations)
    case "Composite":
      return firstCode(issue.issues[0]) ?? codeOf(issue.ast.annotations)
    case "Filter":
      return codeOf(issue.filter.annotations) ?? firstCode(issue.issue)
    case "MissingKey":
      return codeOf(issue.annotations, "messageMissingKey")
    case "InvalidValue":
    case "Forbidden":
      return codeOf(issue.annotations)
    case "InvalidType":
    case "AnyOf":
    case "OneOf":
    case "UnexpectedKey":
      return codeOf(issue.ast.annotations)
  }
}

/** The field named by the issue's first path, for the (never expected) failure no schema coded. */
const fieldOf = (issue: SchemaIssue.Issue): string | undefined => {
  if (issue._tag === "Pointer") return fieldOf(issue.issue) ?? String(issue.path.at(-1))
  if (issue._tag === "Composite") return fieldOf(issue.issues[0])
  if (issue._tag === "Encoding" || issue._tag === "Filter") return fieldOf(issue.issue)
  return undefined
}

export const directErrorOf = (issue: SchemaIssue.Issue): DirectPurchaseError => {
  const code = firstCode(issue) ?? { message: `${fieldOf(issue) ?? "request"} is invalid`, reason: "InvalidRequest" }
  return new DirectPurchaseError(code)
}

/**
 * A request's parser, its decoder built once: `inputOf` lays the request's fields out as `schema` reads
 * them (see `valueOf`, `present`); `toRequest` turns the decoded fields into the use case's request.
 * The answer is that request, or the coded error of the first issue.
 */
export const requestParser = <S extends Schema.ConstraintDecoder<unknown>, A>(
  schema: S,
  inputOf: (fields: Fields) => unknown,
  toRequest: (decoded: S["Type"]) => A
) => {
  const decode = Schema.decodeUnknownResult(schema)
  return (fields: Fields): A | DirectPurchaseError => {
    const result = decode(inputOf(fields))
    return Result.isSuccess(result) ? toRequest(result.success) : directErrorOf(result.failure.issue)
  }
}
