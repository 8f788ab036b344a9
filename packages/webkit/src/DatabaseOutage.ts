/**
 * The one place that decides whether a failure means "the database is not reachable right now" (a
 * restart, a failover, a dropped connection) rather than a bug, and what a caller gets then: 503 with
 * `Retry-After`, never a 500. The store turns storage failures into defects at the port edge
 * (`store/src/SqlValues.ts`), so every surface meets them as defects: the /v2 fallback
 * (`validation/FastApiFallback.ts`), the route answers drawn as pages (`web/gateway/RouteAnswer.ts`) and the
 * direct surface (`direct/DirectHandler.ts`) ask `isDatabaseUnavailable` before answering 500.
 */
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { isSqlError, isSqlErrorReason, type SqlErrorReason } from "effect/sql/SqlError"
import { RequestId } from "./RequestId.ts"

/** What a caller should wait before retrying: a fast restart takes a few seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 2

// SQLSTATEs of a server that is going away or not yet back, which the driver files as UnknownError:
// 57P01 admin shutdown (`pg_ctl stop -m fast`), 57P02 crash shutdown, 57P03 starting up / shutting
// down, 53300 too many connections (a fleet reconnecting at once).
const UNAVAILABLE_STATES: ReadonlySet<string> = new Set(["57P01", "57P02", "57P03", "53300"])

const sqlStateOf = (reason: SqlErrorReason): string | undefined => {
  const cause = reason.cause as { readonly code?: unknown } | null | undefined
  return typeof cause?.code === "string" ? cause.code : undefined
}

const reasonUnavailable = (reason: SqlErrorReason): boolean =>
  // ConnectionError: refused, reset, closed, connect timed out (the pool's connectTimeout) or SQLSTATE class 08.
  reason._tag === "ConnectionError" || UNAVAILABLE_STATES.has(sqlStateOf(reason) ?? "")

/**
 * Whether `failure` (a defect or an error) is the database being unreachable. Follows `cause` a few
 * levels, so a SqlError wrapped by another error still counts; anything else (a constraint, a syntax
 * error, a deadlock) stays what it is.
 */
export const isDatabaseUnavailable = (failure: unknown): boolean => {
  let current: unknown = failure
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    if (isSqlError(current)) return reasonUnavailable(current.reason)
    if (isSqlErrorReason(current)) return reasonUnavailable(current)
    current = (current as { readonly cause?: unknown }).cause
  }
  return false
}

/** The /v2 answer (`{detail, code, request_id}`), with `Retry-After`. */
export const databaseUnavailableResponse = (requestId: string) =>
  HttpServerResponse.jsonUnsafe(
    {
      detail: "The service is briefly unavailable (its database does not answer); retry shortly",
      code: "database_unavailable",
      ...(requestId === "" ? {} : { request_id: requestId })
    },
    { status: 503, headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) } }
  )

/**
 * For a defect handler: the 503 when the defect is the database being away, else `undefined`. Logged
 * at debug only: `database lost` / `database back` (observability's DatabaseWatch) say it once.
 */
export const databaseUnavailableAnswer = (defect: unknown) =>
  isDatabaseUnavailable(defect)
    ? Effect.gen(function* () {
        yield* Effect.logDebug("database unavailable: answered 503")
        return databaseUnavailableResponse(yield* RequestId)
      })
    : undefined
