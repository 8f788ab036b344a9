import { Effect, Option, Redacted, Schema } from "effect"
import type { HttpServerRequest } from "effect/http"
import { laxBool } from "./PydanticFields.ts"

/**
 * Field readers for the two operator forms that must answer their 404/422 before the session check
 * (`api/PanelFormInput.ts`): pydantic's lax rules, producing FastAPI's 422 items.
 */
export interface ValidationItem {
  readonly type: string
  readonly loc: ReadonlyArray<string | number>
  readonly msg: string
  readonly input: unknown
}

export const missing = (loc: ReadonlyArray<string>): ValidationItem => ({
  type: "missing",
  loc,
  msg: "Field required",
  input: null
})

/** pydantic's lax `int` from text: digits with an optional sign, nothing else. */
export const intField = (
  loc: ReadonlyArray<string>,
  raw: string | undefined,
  errors: Array<ValidationItem>
): number => {
  if (raw === undefined) {
    errors.push(missing(loc))
    return 0
  }
  const trimmed = raw.trim()
  if (!/^[+-]?\d+$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) {
    errors.push({
      type: "int_parsing",
      loc,
      msg: "Input should be a valid integer, unable to parse string as an integer",
      input: raw
    })
    return 0
  }
  return Number(trimmed)
}

/** pydantic's lax optional `bool` from text (absent = false). */
export const boolField = (
  loc: ReadonlyArray<string>,
  raw: string | undefined,
  errors: Array<ValidationItem>
): boolean => {
  if (raw === undefined) return false
  const value = laxBool(raw)
  if (value !== undefined) return value
  errors.push({
    type: "bool_parsing",
    loc,
    msg: "Input should be a valid boolean, unable to interpret input",
    input: raw
  })
  return false
}

export const strField = (
  loc: ReadonlyArray<string>,
  raw: string | undefined,
  errors: Array<ValidationItem>
): string => {
  if (raw === undefined) errors.push(missing(loc))
  return raw ?? ""
}

/** The urlencoded (or multipart text) fields of a POST body; an unreadable body is an empty form. */
export const formFields = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()
    const fields: Record<string, string> = {}
    if (type === "application/x-www-form-urlencoded") {
      const params = yield* Effect.orElseSucceed(
        request.urlParamsBody,
        () => [] as ReadonlyArray<readonly [string, string]>
      )
      for (const [key, value] of params) fields[key] = typeof value === "string" ? value : Redacted.value(value)
    }
    return fields
  })

/** A path id: digits only and positive, else the route does not exist for it. */
export const pathId = (raw: string | undefined): number | undefined =>
  raw !== undefined && /^\d{1,15}$/.test(raw) && Number(raw) > 0 ? Number(raw) : undefined

/** A path id decoded into the core's branded id (`UserId`, `TicketId`, ...); undefined as for `pathId`. Build it once per route file. */
export const pathIdOf = <S extends Schema.ConstraintDecoder<unknown>>(id: S) => {
  const decode = Schema.decodeUnknownOption(id)
  return (raw: string | undefined): S["Type"] | undefined => {
    const n = pathId(raw)
    return n === undefined ? undefined : Option.getOrUndefined(decode(n))
  }
}
