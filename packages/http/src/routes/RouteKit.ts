import type { UserId } from "@resale/core"
import { noteRequestUser } from "@resale/observability/RequestFacts.ts"
import { Clock, Effect, Option, Redacted, Schema } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { isSameOrigin } from "@resale/webkit/OriginCheck.ts"
import type { WebSessions } from "@resale/webkit/WebSessions.ts"
import type { ErrorCode, ErrorParams } from "@resale/wire/ErrorCodes.ts"
import { statusOf } from "../api/Errors.ts"
import { retryAfterSeconds, toHttpError } from "../handlers/ErrorMapping.ts"
import { laxBool } from "../validation/PydanticFields.ts"

/**
 * Helpers of the web package's own JSON routes (the few the pages need that the /v2 contract does
 * not have). They answer like the rest of /v2: `{"detail": "..."}` errors and FastAPI's 422 list.
 */
export const json = (body: unknown, status = 200) => HttpServerResponse.jsonUnsafe(body, { status })

/** An error answer as the /v2 handlers give it: English `detail`, machine `code`, optional `params`. */
export const detail = (status: number, text: string, code: ErrorCode, params?: ErrorParams) =>
  json(params === undefined ? { detail: text, code } : { detail: text, code, params }, status)

/** A failed use case as the /v2 handlers would answer it; an error nobody mapped is a defect. */
export const errorResponse = (error: unknown) => {
  const mapped = toHttpError(error)
  if (mapped === undefined) return Effect.die(error)
  return Effect.map(Clock.currentTimeMillis, (now) => {
    const response = detail(statusOf(mapped), mapped.detail, mapped.code, mapped.params)
    const after = retryAfterSeconds(mapped, now)
    return after === undefined ? response : HttpServerResponse.setHeader(response, "retry-after", String(after))
  })
}

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

export const validationFailed = (errors: ReadonlyArray<ValidationItem>) => json({ detail: errors }, 422)

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

/** The signed-in shopper; state changes must come from our own pages (as UserSession checks). */
export type Guarded<A> = { readonly refused: HttpServerResponse.HttpServerResponse } | { readonly ok: A }

const crossSite = (request: HttpServerRequest.HttpServerRequest, publicUrl: string) =>
  request.method !== "GET" && request.method !== "HEAD" && !isSameOrigin(request.headers, [publicUrl])

export const requireUser = (sessions: WebSessions["Service"], publicUrl: string) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const userId = yield* sessions.user(request)
    if (Option.isNone(userId))
      return { refused: detail(401, "Not authenticated", "not_authenticated") } as Guarded<UserId>
    if (crossSite(request, publicUrl))
      return { refused: detail(403, "Cross-site request refused", "cross_site_refused") } as Guarded<UserId>
    return { ok: userId.value } as Guarded<UserId>
  })

/**
 * An operator signed in on the web (admin session cookie), with the same cross-site rule. The request
 * line then names the operator, as the contract's operator routes do (`OperatorSession`).
 */
export const requireOperator = (sessions: WebSessions["Service"], publicUrl: string) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!(yield* sessions.operator(request)))
      return { refused: detail(401, "Not authenticated", "not_authenticated") } as Guarded<true>
    if (crossSite(request, publicUrl))
      return { refused: detail(403, "Cross-site request refused", "cross_site_refused") } as Guarded<true>
    noteRequestUser(request, "operator")
    return { ok: true } as Guarded<true>
  })

/** Runs a route's `body` for a signed-in operator only; anyone else gets the guard's refusal. */
export const operatorOnly =
  (sessions: WebSessions["Service"], publicUrl: string) =>
  <A, E, R>(body: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const who = yield* requireOperator(sessions, publicUrl)
      if ("refused" in who) return who.refused
      return yield* body
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

/** `?name=` as a non-negative integer within bounds, or the default. */
export const queryInt = (
  query: URLSearchParams,
  name: string,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER
): number => {
  const raw = query.get(name)
  if (raw === null || !/^\d+$/.test(raw)) return fallback
  return Math.min(max, Number(raw))
}
