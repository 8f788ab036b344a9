import { SchemaAST } from "effect"
import type { Schema } from "effect"
import { type FieldKind, kindOf, type ValueRule, ValueRuleKey } from "./Fields.ts"
import type { FieldRecord } from "@resale/wire/SchemaRecords.ts"
import { checkValue, jsonInput } from "./PydanticValues.ts"

/**
 * pydantic 2's lax-mode coercion and error records for the flat request models of the original
 * service: each declared field is checked on its own so every invalid part is reported at once.
 */
export interface FieldSpec {
  readonly name: string
  readonly kind: FieldKind
  readonly required: boolean
  readonly nullable: boolean
  /** Exclusive lower bound of a number (`Schema.isGreaterThan`), as pydantic's `gt`. */
  readonly gt?: number
  /** Inclusive bounds of a number (`Schema.isGreaterThanOrEqualTo` / `isLessThanOrEqualTo`), as pydantic's `ge` / `le`. */
  readonly ge?: number
  readonly le?: number
  /** Longest text accepted (`Schema.isMaxLength`, else `MAX_TEXT_LENGTH`), as pydantic's `max_length`. */
  readonly maxLength?: number
  /** The closed set of a text field (`Schema.Literals`), as a pydantic `Enum`/`Literal`. */
  readonly literals?: ReadonlyArray<string>
  /** The field's own rules (`valueRule`), as pydantic's field validators: checked last, in order. */
  readonly rules?: ReadonlyArray<ValueRule>
}

/** One refused field, as pydantic 2 records it: the record the schema walker of wire makes, too. */
export type ValidationErrorItem = FieldRecord

/** No text field of a request is longer than this, whatever its schema says (bounded input). */
export const MAX_TEXT_LENGTH = 4096

export type Loc = "path" | "query" | "header" | "body"
/** "text" for form, multipart, query, path and header values; "json" for JSON bodies. */
export type Mode = "text" | "json"

const unwrapNullable = (ast: SchemaAST.AST): { ast: SchemaAST.AST; nullable: boolean } => {
  if (SchemaAST.isUnion(ast)) {
    const rest = ast.types.filter((t) => !SchemaAST.isNull(t) && !SchemaAST.isUndefined(t))
    if (rest.length === 1 && rest.length < ast.types.length) return { ast: rest[0]!, nullable: true }
  }
  return { ast, nullable: false }
}

/** The exclusive minimum a number schema declares with `Schema.isGreaterThan`, if any. */
const checkPayload = (ast: SchemaAST.AST, id: string, key: string): number | undefined => {
  for (const check of ast.checks ?? []) {
    const representation = check.annotations?.["representation"] as
      | { id?: string; payload?: Record<string, unknown> }
      | undefined
    const value = representation?.id === id ? representation.payload?.[key] : undefined
    if (typeof value === "number") return value
  }
  return undefined
}

const valueRules = (ast: SchemaAST.AST): ReadonlyArray<ValueRule> =>
  (ast.checks ?? []).flatMap((check) => {
    const rule = check.annotations?.[ValueRuleKey] as ValueRule | undefined
    return rule === undefined ? [] : [rule]
  })

// Annotations of a schema with checks live on its last check.
const annotatedKind = (ast: SchemaAST.AST): FieldKind | undefined =>
  kindOf(ast.annotations) ?? (ast.checks ?? []).map((c) => kindOf(c.annotations)).findLast((k) => k !== undefined)

export const kindFromAst = (ast: SchemaAST.AST): FieldKind => {
  const direct = annotatedKind(ast)
  if (direct) return direct
  if (SchemaAST.isString(ast)) return "str"
  if (SchemaAST.isNumber(ast)) return "float"
  if (SchemaAST.isBoolean(ast)) return "bool"
  return "any"
}

/** The values of a string literal or a union of string literals, else undefined. */
const stringLiterals = (ast: SchemaAST.AST): ReadonlyArray<string> | undefined => {
  const members = SchemaAST.isUnion(ast) ? ast.types : [ast]
  const values = members.map((m) => (SchemaAST.isLiteral(m) && typeof m.literal === "string" ? m.literal : undefined))
  return values.every((v): v is string => v !== undefined) && values.length > 0 ? values : undefined
}

/** Field specs of a struct schema, in declaration order (FastAPI reports in that order). */
export const fieldsOf = (schema: Schema.Top | undefined): ReadonlyArray<FieldSpec> => {
  if (schema === undefined) return []
  const ast = schema.ast
  if (!SchemaAST.isObjects(ast)) return []
  return ast.propertySignatures.map((ps) => {
    const { ast: inner, nullable } = unwrapNullable(ps.type)
    const encoded = SchemaAST.toEncoded(ps.type)
    const gt = checkPayload(inner, "effect/schema/isGreaterThan", "exclusiveMinimum")
    const ge = checkPayload(inner, "effect/schema/isGreaterThanOrEqualTo", "minimum")
    const le = checkPayload(inner, "effect/schema/isLessThanOrEqualTo", "maximum")
    const maxLength = checkPayload(inner, "effect/schema/isMaxLength", "maxLength")
    const literals = stringLiterals(inner)
    const rules = valueRules(inner)
    return {
      name: String(ps.name),
      kind: literals === undefined ? kindFromAst(inner) : "str",
      ...(literals === undefined ? {} : { literals }),
      required: !SchemaAST.isOptional(ps.type) && !SchemaAST.isOptional(encoded),
      nullable,
      ...(gt === undefined ? {} : { gt }),
      ...(ge === undefined ? {} : { ge }),
      ...(le === undefined ? {} : { le }),
      ...(maxLength === undefined ? {} : { maxLength }),
      ...(rules.length === 0 ? {} : { rules })
    }
  })
}

const item = (loc: ReadonlyArray<string | number>, type: string, msg: string, input: unknown): ValidationErrorItem => ({
  type,
  loc,
  msg,
  input: input === undefined ? null : input
})

/** pydantic's `ge` / `le` failure of a number, if it breaks one. */
const boundError = (field: FieldSpec, value: unknown) => {
  if (typeof value !== "number") return undefined
  if (field.ge !== undefined && value < field.ge)
    return {
      type: "greater_than_equal",
      msg: `Input should be greater than or equal to ${field.ge}`,
      ctx: { ge: field.ge }
    }
  if (field.le !== undefined && value > field.le)
    return { type: "less_than_equal", msg: `Input should be less than or equal to ${field.le}`, ctx: { le: field.le } }
  return undefined
}

export interface FieldsResult {
  readonly errors: Array<ValidationErrorItem>
  /** The coerced values, ready for the strict schema decoder. */
  readonly values: Record<string, unknown>
  /** Whether coercion changed any value (the request must then be rebuilt). */
  readonly changed: boolean
}

/**
 * Checks `input` against `fields`. `missingInput` is what pydantic reports as the input of a
 * missing field: `null` for form/query/path/header parameters, the whole object for JSON models.
 */
export const checkFields = (
  loc: Loc,
  fields: ReadonlyArray<FieldSpec>,
  input: Readonly<Record<string, unknown>>,
  mode: Mode,
  missingInput: unknown = null
): FieldsResult => {
  const errors: Array<ValidationErrorItem> = []
  const values: Record<string, unknown> = { ...input }
  let changed = false
  for (const field of fields) {
    let raw = input[field.name]
    // A multi-valued query/form key: FastAPI takes the last value for a scalar parameter.
    if (Array.isArray(raw) && field.kind !== "file" && mode === "text") {
      raw = raw[raw.length - 1]
      values[field.name] = raw
      changed = true
    }
    // FastAPI treats an empty form value as absent.
    const absent = raw === undefined || (mode === "text" && loc === "body" && raw === "")
    if (absent) {
      if (raw !== undefined) {
        delete values[field.name]
        changed = true
      }
      if (field.required) errors.push(item([loc, field.name], "missing", "Field required", missingInput))
      continue
    }
    if (raw === null && field.nullable) continue
    const result = checkValue(field.kind, raw)
    if (!result.ok) {
      errors.push(item([loc, field.name], result.type, result.msg, jsonInput(raw)))
      continue
    }
    if (field.gt !== undefined && typeof result.value === "number" && !(result.value > field.gt)) {
      errors.push({
        ...item([loc, field.name], "greater_than", `Input should be greater than ${field.gt}`, jsonInput(raw)),
        ctx: { gt: field.gt }
      })
      continue
    }
    const bound = boundError(field, result.value)
    if (bound !== undefined) {
      errors.push({ ...item([loc, field.name], bound.type, bound.msg, jsonInput(raw)), ctx: bound.ctx })
      continue
    }
    const maxLength = Math.min(field.maxLength ?? MAX_TEXT_LENGTH, MAX_TEXT_LENGTH)
    if (field.kind === "str" && typeof result.value === "string" && result.value.length > maxLength) {
      // The input is not echoed: it is what made the request too big.
      errors.push({
        ...item([loc, field.name], "string_too_long", `String should have at most ${maxLength} characters`, null),
        ctx: { max_length: maxLength }
      })
      continue
    }
    if (field.literals !== undefined && !field.literals.includes(String(result.value))) {
      const expected = field.literals.map((l) => `'${l}'`)
      const words =
        expected.length > 1 ? `${expected.slice(0, -1).join(", ")} or ${expected.at(-1)}` : expected.join("")
      errors.push({
        ...item([loc, field.name], "enum", `Input should be ${words}`, jsonInput(raw)),
        ctx: { expected: words }
      })
      continue
    }
    // pydantic reports a validator's ValueError with its raw input and an empty `ctx.error`.
    const broken = field.rules?.find((rule) => !rule.test(result.value as never))
    if (broken !== undefined) {
      errors.push({
        ...item([loc, field.name], "value_error", `Value error, ${broken.message}`, jsonInput(raw)),
        ctx: { error: {} }
      })
      continue
    }
    const value = mode === "text" && typeof result.value !== "object" ? String(result.value) : result.value
    if (value !== raw) changed = true
    values[field.name] = value
  }
  return { errors, values, changed }
}
