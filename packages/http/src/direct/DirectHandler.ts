/**
 * One direct request, start to end: rate limit by client address, read the JSON body (GET or POST),
 * log it redacted, run the use case, answer. Failures become answers in `DirectErrors`; the database
 * being away SERVICE_UNAVAILABLE (503, `Retry-After`); any other defect CRITICAL_SERVER_ERROR with an
 * id that is also logged (scrubbed). The raw body, and so the
 * phrase, is never logged, stored, traced or echoed; it is only handed to the request parser.
 */
import type { DirectPurchaseError } from "@resale/core/direct/DirectPurchaseError.ts"
import { randomToken } from "@resale/core/Secrets.ts"
import { ByteSize, Clock, Effect, Option, Result } from "effect"
import { HttpIncomingMessage, type HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import {
  badRequest,
  critical,
  type DirectEndpoint,
  type DirectFailure,
  failureOf,
  failureResponse,
  rateLimited,
  serviceUnavailable
} from "./DirectErrors.ts"
import type { DirectHttpSettings } from "./DirectConfig.ts"
import { answerJson } from "./DirectJson.ts"
import type { RateLimiter } from "@resale/webkit/RateLimiter.ts"
import { redactedRequest, scrubPhrases } from "./Redaction.ts"
import {
  clientAddress as forwardedClient,
  limitKey,
  noTrustedProxies,
  plainAddress
} from "@resale/webkit/ClientAddress.ts"
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "@resale/webkit/DatabaseOutage.ts"

export type Fields = Readonly<Record<string, unknown>>

/** A parser's result: the typed request, or the field error (the first check of every request). */
export const parsed = <A>(result: A | DirectPurchaseError): Effect.Effect<A, DirectPurchaseError> =>
  typeof result === "object" && result !== null && "_tag" in result && result._tag === "DirectPurchaseError"
    ? Effect.fail(result as DirectPurchaseError)
    : Effect.succeed(result as A)

export interface DirectRoute {
  readonly path: `/${string}`
  readonly endpoint: DirectEndpoint
  /** Whether the request has a body of fields (all but /status). */
  readonly withBody: boolean
  readonly limited: boolean
  /** Answers POST only, fields in the body only (the wallet road); the seed road's paths take GET and POST. */
  readonly postOnly?: boolean
  readonly run: (fields: Fields) => Effect.Effect<object, DirectPurchaseError>
}

/**
 * The caller, as limits count it: the socket's address, or with DIRECT_TRUST_PROXY the hop the proxy
 * in front appended (the rightmost X-Forwarded-For hop; the ones left of it the client wrote itself).
 * IPv6 callers count by their /64 (`@resale/webkit/ClientAddress.ts`).
 */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  const peer = plainAddress(Option.getOrElse(request.remoteAddress, () => "unknown"))
  return limitKey(forwardedClient(request, trustProxy ? { has: (address) => address === peer } : noTrustedProxies))
}

/**
 * The server's request span records the URL with its query when the request ends. The query is only
 * a second way to send plain fields, so the span is told to redact every query value: a client that puts the
 * phrase in the URL leaves no trace in the traces (the log line of the response has no query at all).
 */
const hideQueryInSpan = (request: HttpServerRequest.HttpServerRequest) => {
  const at = request.url.indexOf("?")
  if (at < 0) return Effect.void
  const names = [...new URLSearchParams(request.url.slice(at + 1)).keys()]
  const redact = (key: string, value: unknown): unknown =>
    typeof value !== "string"
      ? value
      : key === "url.full"
        ? UrlParams.redactUrl(value, names)
        : key === "url.query"
          ? UrlParams.redactUrl(`?${value}`, names).slice(1)
          : value
  return Effect.currentParentSpan.pipe(
    Effect.tap((span) =>
      Effect.sync(() => {
        if (span._tag !== "Span") return
        const attribute = span.attribute.bind(span)
        span.attribute = (key, value) => attribute(key, redact(key, value))
      })
    ),
    Effect.ignore
  )
}

/** The query string decoded for inspection (undecodable escapes are kept as they are). */
const queryText = (url: string): string => {
  const at = url.indexOf("?")
  if (at < 0) return ""
  const raw = url.slice(at + 1).replaceAll("+", " ")
  try {
    return decodeURIComponent(raw)
  } catch {
    // a malformed escape: inspect the raw text instead
    return raw
  }
}

/**
 * Fields from the query string (`GET /stars/buy?username=durov&amount=50`), first value of each name;
 * the JSON body's fields win over them. A phrase never gets here: `readFields` refuses it in the URL.
 */
const queryFields = (url: string): Fields => {
  const at = url.indexOf("?")
  if (at < 0) return {}
  const fields: Record<string, unknown> = {}
  for (const [name, value] of new URLSearchParams(url.slice(at + 1))) if (!(name in fields)) fields[name] = value
  return fields
}

// Read without echoing: the parser error of JSON.parse quotes the input, so its message is dropped.
type Read =
  | { readonly _tag: "Fields"; readonly fields: Fields }
  | { readonly _tag: "Bad"; readonly failure: DirectFailure }

const bad = (message: string): Read => ({ _tag: "Bad", failure: badRequest(message) })

const readFields = (request: HttpServerRequest.HttpServerRequest, maxBytes: number, bodyOnly: boolean) =>
  Effect.gen(function* (): Effect.fn.Return<Read> {
    const query = queryText(request.url)
    if (/(^|&)seed=/i.test(query) || scrubPhrases(query) !== query) {
      return bad(
        "The mnemonic phrase must not be sent in the URL (it would be logged by every proxy): send seed in the JSON body"
      )
    }
    const fromQuery = bodyOnly ? {} : queryFields(request.url)
    const length = Number(request.headers["content-length"] ?? "0")
    if (Number.isFinite(length) && length > maxBytes) return bad(`The body is larger than ${maxBytes} bytes`)
    const text = yield* request.text.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBytes)),
      Effect.result
    )
    if (Result.isFailure(text)) return bad("The request body could not be read (too large or interrupted)")
    if (text.success.trim() === "") return { _tag: "Fields", fields: fromQuery }
    let parsed: unknown
    try {
      parsed = JSON.parse(text.success)
    } catch {
      // JSON.parse's message quotes the body, which may hold the phrase: say only that it is malformed
      return bad("Malformed JSON: the body must be a JSON object")
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return bad("The body must be a JSON object")
    }
    return { _tag: "Fields", fields: { ...fromQuery, ...(parsed as Fields) } }
  })

export const makeDirectHandler =
  (settings: DirectHttpSettings, limiter: RateLimiter["Service"]) =>
  (route: DirectRoute) =>
  (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function* () {
      const started = yield* Clock.currentTimeMillis
      yield* hideQueryInSpan(request)
      const client = clientAddress(request, settings.trustProxy)
      const answer = (failure: DirectFailure, headers: Record<string, string> = {}) =>
        Effect.as(
          Effect.logInfo("direct answer").pipe(
            Effect.annotateLogs({
              path: route.path,
              status: failure.status,
              code: failure.code,
              order_id: failure.orderId ?? "",
              ms: Date.now() - started
            })
          ),
          failureResponse(failure, headers)
        )
      if (route.limited) {
        const wait = yield* limiter.take(client)
        if (wait > 0) return yield* answer(rateLimited(limiter.limit.perMinute, wait), { "retry-after": String(wait) })
      }
      const read: Read = route.withBody
        ? yield* readFields(request, settings.maxBodyBytes, route.postOnly === true)
        : { _tag: "Fields", fields: {} }
      if (read._tag === "Bad") return yield* answer(read.failure)
      // The house-wide Idempotency-Key header stands in for a missing order_id (same rules apply).
      const key = request.headers["idempotency-key"]
      const fields =
        read.fields["order_id"] === undefined && typeof key === "string" && key !== ""
          ? { ...read.fields, order_id: key }
          : read.fields
      yield* Effect.logInfo("direct request").pipe(
        Effect.annotateLogs({
          path: route.path,
          method: request.method,
          client,
          request: redactedRequest(fields)
        })
      )
      const outcome = yield* Effect.result(route.run(fields))
      if (Result.isFailure(outcome)) return yield* answer(failureOf(route.endpoint, outcome.failure))
      const body = outcome.success as Record<string, unknown>
      yield* Effect.logInfo("direct answer").pipe(
        Effect.annotateLogs({
          path: route.path,
          status: 200,
          order_id: typeof body["order_id"] === "string" ? body["order_id"] : "",
          ms: Date.now() - started
        })
      )
      // Written by hand so TON amounts keep every nanoton (DirectJson).
      return HttpServerResponse.text(answerJson(body), { contentType: "application/json" })
    }).pipe(
      Effect.catchDefect((defect) =>
        Effect.gen(function* () {
          if (isDatabaseUnavailable(defect))
            return failureResponse(serviceUnavailable, { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) })
          const errorId = yield* randomToken(8)
          const summary = defect instanceof Error ? `${defect.name}: ${defect.message}` : String(defect)
          yield* Effect.logError("direct request failed with a defect").pipe(
            Effect.annotateLogs({ path: route.path, error_id: errorId, defect: scrubPhrases(summary).slice(0, 500) })
          )
          return failureResponse(critical(errorId))
        })
      )
    )
