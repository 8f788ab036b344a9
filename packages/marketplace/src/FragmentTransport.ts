/**
 * Fragment's web transport over effect's `HttpClient` (see FragmentHttp), one per cookie session:
 * GET a purchase page to learn its api hash (hashes are bound to the session), then POST
 * form-encoded `method=...` calls to `/api?hash=<hex>` with the session cookies, decoding the JSON
 * answer (FragmentAnswers). Stale hash ("Bad request") -> reload the page once and retry; HTTP 403
 * -> `Blocked` (see FragmentRefusal). Every request is under the product's one retry policy
 * (`@resale/outbound`) as not repeatable: only HTTP 429 is retried (3 times, `Retry-After`
 * honoured), never a call that got no answer, timed out or answered 5xx, since an init or a
 * confirmReq may have taken effect.
 */
import { Cause, Duration, Effect, Redacted } from "effect"
import { type HttpClient, HttpClientRequest } from "effect/http"
import type { Headers } from "effect/http"
import { DEFAULT_POLICY, retrying, type RetryPolicy } from "@resale/outbound/RetryPolicy.ts"
import type { MarketplaceError } from "@resale/core/ports/Marketplace.ts"
import { decodeApiAnswer, type FragmentAnswer } from "./FragmentAnswers.ts"
import type { FragmentOptions, FragmentSession } from "./FragmentConfig.ts"
import { fromFragmentError, sessionExpired, STALE_HASH, timeout, unavailable } from "./FragmentErrors.ts"
import { refusalOf } from "./FragmentRefusal.ts"

export type FragmentPage = "/stars/buy" | "/premium/gift" | "/ads/topup"
export type FormFields = Readonly<Record<string, string | number>>
export type { FragmentAnswer } from "./FragmentAnswers.ts"

export interface FragmentTransport {
  /** the session's label (logged; never its cookies) */
  readonly session: string
  /** One api call; `{"error": ...}` answers arrive as a mapped `MarketplaceError`. */
  readonly call: (
    page: FragmentPage,
    method: string,
    fields: FormFields
  ) => Effect.Effect<FragmentAnswer, MarketplaceError>
}

/** One answer read whole within its attempt. */
interface RawResponse {
  readonly status: number
  readonly text: string
  readonly headers: Headers.Headers
}

const HASH = /(?:https:\/\/fragment\.com)?\\?\/api\?hash=([a-f0-9]+)/
const USER_AGENT =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36"

export const extractApiHash = (html: string): string | undefined => HASH.exec(html)?.[1]

/** The retry policy of every Fragment request (FRAGMENT_TIMEOUT bounds each attempt). */
export const fragmentPolicy = (options: FragmentOptions): RetryPolicy => ({
  ...DEFAULT_POLICY,
  repeatable: false,
  times: options.rateLimitRetries ?? 3,
  firstDelay: options.rateLimitDelay ?? Duration.seconds(1),
  attemptTimeout: options.timeout
})

/** `client`: shared by every session (see FragmentHttp). */
export const makeFragmentTransport = (
  options: FragmentOptions,
  session: FragmentSession,
  client: HttpClient.HttpClient
): FragmentTransport => {
  const base = options.baseUrl.replace(/\/+$/, "")
  const hashes = new Map<FragmentPage, string>()
  const policy = fragmentPolicy(options)
  const waited = `Fragment did not answer within ${Duration.format(Duration.fromInputUnsafe(options.timeout))}`

  const send = (request: HttpClientRequest.HttpClientRequest): Effect.Effect<RawResponse, MarketplaceError> =>
    client.execute(request).pipe(
      Effect.flatMap((response) =>
        Effect.map(response.text, (text): RawResponse => ({ status: response.status, headers: response.headers, text }))
      ),
      retrying(policy),
      Effect.mapError((error) =>
        Cause.isTimeoutError(error) ? timeout(waited) : unavailable("Fragment is unreachable")
      ),
      Effect.flatMap((res) =>
        res.status === 429
          ? Effect.fail(unavailable("Fragment rate limit persisted after retries"))
          : Effect.succeed(res)
      )
    )

  const headers = (page: FragmentPage, extra: Record<string, string>): Record<string, string> => ({
    cookie: Redacted.value(session.cookies),
    "user-agent": USER_AGENT,
    "accept-language": "en-US,en;q=0.9",
    ...extra,
    referer: `${base}${page}`
  })

  const loadHash = Effect.fn("FragmentTransport.loadHash")(function* (page: FragmentPage) {
    const res = yield* send(
      HttpClientRequest.get(`${base}${page}`).pipe(
        HttpClientRequest.setHeaders(
          headers(page, { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" })
        )
      )
    )
    const refused = refusalOf(res, `page ${page}`)
    if (refused !== undefined) return yield* refused(session.label)
    if (res.status >= 500) return yield* unavailable(`Fragment page ${page} answered HTTP ${res.status}`)
    if (res.status !== 200) return yield* sessionExpired(`Fragment page ${page} answered HTTP ${res.status}`)
    const hash = extractApiHash(res.text)
    if (hash === undefined) return yield* sessionExpired(`Fragment page ${page} carries no api hash`)
    hashes.set(page, hash)
    return hash
  })

  const post = Effect.fn("FragmentTransport.post")(function* (
    page: FragmentPage,
    hash: string,
    method: string,
    fields: FormFields
  ) {
    const body = new URLSearchParams({ method })
    for (const [key, value] of Object.entries(fields)) body.set(key, String(value))
    const res = yield* send(
      HttpClientRequest.post(`${base}/api`).pipe(
        HttpClientRequest.setUrlParam("hash", hash),
        HttpClientRequest.setHeaders(
          headers(page, {
            accept: "application/json, text/javascript, */*; q=0.01",
            origin: base,
            "x-requested-with": "XMLHttpRequest",
            "sec-fetch-dest": "empty",
            "sec-fetch-mode": "cors",
            "sec-fetch-site": "same-origin"
          })
        ),
        HttpClientRequest.bodyText(body.toString(), "application/x-www-form-urlencoded; charset=UTF-8")
      )
    )
    const refused = refusalOf(res, method)
    if (refused !== undefined) return yield* refused(session.label)
    if (res.status !== 200) return yield* unavailable(`Fragment ${method} answered HTTP ${res.status}`)
    return yield* decodeApiAnswer(method, res.text)
  })

  const call = Effect.fn("FragmentTransport.call")(function* (page: FragmentPage, method: string, fields: FormFields) {
    const hash = hashes.get(page) ?? (yield* loadHash(page))
    let answer = yield* post(page, hash, method, fields)
    if (answer["error"] === STALE_HASH) {
      // the hash rotated or belongs to an older session: reload the page once
      hashes.delete(page)
      answer = yield* post(page, yield* loadHash(page), method, fields)
      if (answer["error"] === STALE_HASH) {
        return yield* sessionExpired(`Fragment rejects a fresh api hash for ${page}`)
      }
    }
    const error = answer["error"]
    if (error !== undefined && error !== null && error !== false) {
      return yield* fromFragmentError(method, typeof error === "string" ? error : JSON.stringify(error))
    }
    return answer
  })

  return { session: session.label, call }
}
