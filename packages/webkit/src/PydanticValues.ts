/**
 * pydantic 2's lax reading of one value by the kind of its field (numbers and booleans from text,
 * files, objects), as the original service's FastAPI models read them; `PydanticFields` checks a
 * whole request's fields with it.
 */
import type { FieldKind } from "./Fields.ts"

const INT_TEXT = /^\s*[+-]?\d+(?:_\d+)*(?:\.0*)?\s*$/
const FLOAT_TEXT = /^\s*[+-]?(?:\d+(?:_\d+)*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$|^\s*[+-]?(?:inf|infinity|nan)\s*$/i
const TRUE = new Set(["1", "on", "t", "true", "y", "yes"])
const FALSE = new Set(["0", "off", "f", "false", "n", "no"])

/** pydantic's lax boolean reading of text; undefined when the text is neither. */
export const laxBool = (text: string): boolean | undefined => {
  const t = text.trim().toLowerCase()
  return TRUE.has(t) ? true : FALSE.has(t) ? false : undefined
}

export type Check =
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
export const jsonInput = (v: unknown): unknown => (isFile(v) ? (Array.isArray(v) ? v[0] : v).name : v)

/** One value read as pydantic 2 reads a field of `kind` in lax mode: the value, or the error record's type and message. */
export const checkValue = (kind: FieldKind, v: unknown): Check => {
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
