import { SchemaAST } from "effect"
import type { Schema } from "effect"
import { type FieldKind, kindOf, type ValueRule, ValueRuleKey } from "./Fields.ts"
import type { FieldRecord } from "@resale/wire/SchemaRecords.ts"

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

const INT_TEXT = /^\s*[+-]?\d+(?:_\d+)*(?:\.0*)?\s*$/
const FLOAT_TEXT = /^\s*[+-]?(?:\d+(?:_\d+)*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$|^\s*[+-]?(?:inf|infinity|nan)\s*$/i
const TRUE = new Set(["1", "on", "t", "true", "y", "yes"])
const FALSE = new Set(["0", "off", "f", "false", "n", "no"])

/** pydantic's lax boolean reading of text; undefined when the text is neither. */
export const laxBool = (text: string): boolean | undefined => {
  const t = text.trim().toLowerCase()
  return TRUE.has(t) ? true : FALSE.has(t) ? false : undefined
}

type Check =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly type: string; readonly msg: string }
const ok = (value: unknown): Check => ({ ok: true, value })
const bad = (type: string, msg: string): Check => ({ ok: false, type, msg })

const checkInt = (v: unknown): Check => {
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return bad("finite_number", "Input should be a finite number")
    if (!Number.isInteger(v))
      return bad("int_from_float", "Input should be a valid integer, got a number with a fractional part")
    if (!Number.isSafeInteger(v))
      return bad("int_parsing_size", "Unable to parse input string as an integer, exceeded maximum size")
    return ok(v)
  }
  if (typeof v === "boolean") return ok(v ? 1 : 0)
  if (typeof v === "string") {
    if (!INT_TEXT.test(v))
      return bad("int_parsing", "Input should be a valid integer, unable to parse string as an integer")
    const n = Number(v.trim().replaceAll("_", ""))
    if (!Number.isSafeInteger(n))
      return bad("int_parsing_size", "Unable to parse input string as an integer, exceeded maximum size")
    return ok(n)
  }
  return bad("int_type", "Input should be a valid integer")
}

const checkFloat = (v: unknown): Check => {
  if (typeof v === "number") return Number.isFinite(v) ? ok(v) : bad("finite_number", "Input should be a finite number")
  if (typeof v === "boolean") return ok(v ? 1 : 0)
  if (typeof v === "string") {
    if (!FLOAT_TEXT.test(v))
      return bad("float_parsing", "Input should be a valid number, unable to parse string as a number")
    const n = Number(v.trim().replaceAll("_", ""))
    return Number.isFinite(n) ? ok(n) : bad("finite_number", "Input should be a finite number")
  }
  return bad("float_type", "Input should be a valid number")
}

const checkBool = (v: unknown): Check => {
  if (typeof v === "boolean") return ok(v)
  if (v === 0 || v === 1) return ok(v === 1)
  if (typeof v === "string") {
    const t = v.trim().toLowerCase()
    if (TRUE.has(t)) return ok(true)
    if (FALSE.has(t)) return ok(false)
    return bad("bool_parsing", "Input should be a valid boolean, unable to interpret input")
  }
  if (typeof v === "number") return bad("bool_parsing", "Input should be a valid boolean, unable to interpret input")
  return bad("bool_type", "Input should be a valid boolean")
}

const isFile = (v: unknown): boolean =>
  Array.isArray(v)
    ? v.length > 0 && v.every(isFile)
    : typeof v === "object" && v !== null && (v as { _tag?: unknown })._tag === "PersistedFile"

/** The `input` of an error record as JSON (an uploaded file is reported by its name). */
const jsonInput = (v: unknown): unknown => (isFile(v) ? (Array.isArray(v) ? v[0] : v).name : v)

const checkValue = (kind: FieldKind, v: unknown): Check => {
  switch (kind) {
    case "int":
      return checkInt(v)
    case "float":
      return checkFloat(v)
    case "bool":
      return checkBool(v)
    case "str":
      return typeof v === "string" ? ok(v) : bad("string_type", "Input should be a valid string")
    case "file":
      return isFile(v)
        ? ok(v)
        : bad(
            "value_error",
            `Value error, Expected UploadFile, received: ${typeof v === "string" ? "<class 'str'>" : "<class 'NoneType'>"}`
          )
    case "object":
      return typeof v === "object" && v !== null && !Array.isArray(v)
        ? ok(v)
        : bad("dict_type", "Input should be a valid dictionary")
    case "any":
      return ok(v)
  }
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
