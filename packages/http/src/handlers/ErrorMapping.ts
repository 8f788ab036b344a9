import { Clock, Effect } from "effect"
import {
  type DomainAnswer,
  type DomainError,
  domainAnswer,
  IN_PROGRESS_RETRY_SECONDS
} from "@resale/webkit/DomainErrors.ts"
import {
  BadRequest,
  Conflict,
  Forbidden,
  type HandlerError,
  NotFound,
  ServiceUnavailable,
  TooManyRequests
} from "../api/Errors.ts"
import { RequestId } from "@resale/webkit/RequestId.ts"
import { retryAfter } from "../server/ResponseHeaders.ts"

/**
 * Domain errors become HTTP answers (`{"detail", "code", "params"}`) here, by the shared table of
 * what each means (`@resale/webkit/DomainErrors.ts`): `mapErrors` accepts only the errors that
 * table answers, so an error added to a use case and not answered fails the type check at its call
 * site, instead of silently becoming a 500.
 */
export type { DomainError }
export { IN_PROGRESS_RETRY_SECONDS }

/** Seconds until the next UTC midnight, when daily quotas start again. */
const secondsToMidnightUtc = (now: number): number => {
  const next = new Date(now)
  next.setUTCHours(24, 0, 0, 0)
  return Math.max(1, Math.ceil((next.getTime() - now) / 1000))
}

const ERROR_CLASS = {
  400: BadRequest,
  403: Forbidden,
  404: NotFound,
  409: Conflict,
  429: TooManyRequests,
  503: ServiceUnavailable
} as const

const httpError = ({ status, ...body }: DomainAnswer): HandlerError => new ERROR_CLASS[status](body)
const isHttpError = (e: unknown): e is HandlerError =>
  e instanceof BadRequest ||
  e instanceof Conflict ||
  e instanceof Forbidden ||
  e instanceof NotFound ||
  e instanceof ServiceUnavailable ||
  e instanceof TooManyRequests

/** The HTTP answer of a handler or domain error; `undefined` for anything else (a defect). */
export const toHttpError = (error: unknown): HandlerError | undefined => {
  if (isHttpError(error)) return error
  const answer = domainAnswer(error)
  return answer === undefined ? undefined : httpError(answer)
}

const withRequestId = (error: ServiceUnavailable, requestId: string): ServiceUnavailable =>
  requestId === ""
    ? error
    : new ServiceUnavailable({
        detail: error.detail,
        code: error.code,
        ...(error.params === undefined ? {} : { params: error.params }),
        request_id: requestId
      })

/** Seconds a client should wait before retrying this answer, if it is a retry-later one. */
export const retryAfterSeconds = (error: HandlerError, now: number): number | undefined =>
  error.code === "idempotency_key_in_progress"
    ? IN_PROGRESS_RETRY_SECONDS
    : error.code === "info_quota_exceeded"
      ? secondsToMidnightUtc(now)
      : error instanceof TooManyRequests && typeof error.params?.["retry_after_seconds"] === "number"
        ? error.params["retry_after_seconds"]
        : error instanceof TooManyRequests
          ? 1
          : undefined

/**
 * Maps a use case's errors to HTTP answers. Only mapped domain errors and HTTP errors may reach it
 * (the compiler checks `E`); a defect stays a defect (500 with the request id).
 */
export const mapErrors = <A, E extends DomainError | HandlerError, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, HandlerError, R> =>
  Effect.catch(effect, (error: E) =>
    Effect.gen(function* () {
      const mapped = toHttpError(error)
      if (mapped === undefined) return yield* Effect.die(error)
      const after = retryAfterSeconds(mapped, yield* Clock.currentTimeMillis)
      if (after !== undefined) yield* retryAfter(after)
      // A server-side failure names the request, so a report can be matched to the logs.
      if (mapped instanceof ServiceUnavailable) return yield* Effect.fail(withRequestId(mapped, yield* RequestId))
      return yield* Effect.fail(mapped)
    })
  )
