/**
 * Fragment's web transport over undici, one per cookie session: GET a purchase page to learn its
 * api hash (hashes are bound to the session), then POST form-encoded `method=...` calls to
 * `/api?hash=<hex>` with the session cookies, reading JSON. Stale hash ("Bad request") -> reload the
 * page once and retry; HTTP 429 -> retried with backoff; HTTP 403 -> `Blocked` (see FragmentRefusal).
 */
import { Data, Duration, Effect, Redacted, Schedule } from "effect"
import type { Dispatcher } from "undici"
import { request } from "undici"
import type { MarketplaceError } from "@resale/core/ports/Marketplace.ts"
import type { FragmentOptions, FragmentSession } from "./FragmentConfig.ts"
import { fromFragmentError, sessionExpired, STALE_HASH, timeout, unavailable } from "./FragmentErrors.ts"
import { refusalOf } from "./FragmentRefusal.ts"

export type FragmentPage = "/stars/buy" | "/premium/gift" | "/ads/topup"
export type FormFields = Readonly<Record<string, string | number>>
export type FragmentAnswer = Readonly<Record<string, unknown>>

export interface FragmentTransport {
  /** the session's label (logged; never its cookies) */
  readonly session: string
  /** One api call; `{"error": ...}` answers arrive as a mapped `MarketplaceError`. */
  readonly call: (page: FragmentPage, method: string, fields: FormFields) => Effect.Effect<FragmentAnswer, MarketplaceError>
}

class RateLimited extends Data.TaggedError("RateLimited")<{}> {}

interface RawResponse {
  readonly status: number
  readonly text: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
}

const HASH = /(?:https:\/\/fragment\.com)?\\?\/api\?hash=([a-f0-9]+)/
const USER_AGENT =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36"

export const extractApiHash = (html: string): string | undefined => HASH.exec(html)?.[1]

/** `dispatcher`: shared by every session (a plain agent, or a proxy agent, see FragmentDispatcher). */
export const makeFragmentTransport = (
  options: FragmentOptions,
  session: FragmentSession,
  dispatcher: Dispatcher
): FragmentTransport => {
  const base = options.baseUrl.replace(/\/+$/, "")
  const hashes = new Map<FragmentPage, string>()
  const retries = options.rateLimitRetries ?? 3
  const backoff = Schedule.exponential(options.rateLimitDelay ?? Duration.seconds(1)).pipe(Schedule.jittered)

  const send = (url: string, init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string }) =>
    Effect.tryPromise({
      try: async (signal): Promise<RawResponse> => {
        const res = await request(url, { ...init, signal, dispatcher })
        return { status: res.statusCode, text: await res.body.text(), headers: res.headers }
      },
      catch: () => unavailable("Fragment is unreachable")
    }).pipe(
      Effect.timeoutOrElse({
        duration: options.timeout,
        orElse: () => Effect.fail(timeout(`Fragment did not answer within ${Duration.format(Duration.fromInputUnsafe(options.timeout))}`))
      }),
      Effect.flatMap((res) => res.status === 429 ? Effect.fail(new RateLimited()) : Effect.succeed(res)),
      Effect.retry({ while: (e) => e._tag === "RateLimited", times: retries, schedule: backoff }),
      Effect.catchTag("RateLimited", () => Effect.fail(unavailable("Fragment rate limit persisted after retries")))
    )

  const headers = (page: FragmentPage, extra: Record<string, string>): Record<string, string> => ({
    cookie: Redacted.value(session.cookies),
    "user-agent": USER_AGENT,
    "accept-language": "en-US,en;q=0.9",
    ...extra,
    referer: `${base}${page}`
  })

  const loadHash = Effect.fn("FragmentTransport.loadHash")(function*(page: FragmentPage) {
    const res = yield* send(`${base}${page}`, {
      method: "GET",
      headers: headers(page, { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" })
    })
    const refused = refusalOf(res, `page ${page}`)
    if (refused !== undefined) return yield* refused(session.label)
    if (res.status >= 500) return yield* unavailable(`Fragment page ${page} answered HTTP ${res.status}`)
    if (res.status !== 200) return yield* sessionExpired(`Fragment page ${page} answered HTTP ${res.status}`)
    const hash = extractApiHash(res.text)
    if (hash === undefined) return yield* sessionExpired(`Fragment page ${page} carries no api hash`)
    hashes.set(page, hash)
    return hash
  })

  const post = Effect.fn("FragmentTransport.post")(
    function*(page: FragmentPage, hash: string, method: string, fields: FormFields) {
      const body = new URLSearchParams({ method })
      for (const [key, value] of Object.entries(fields)) body.set(key, String(value))
      const res = yield* send(`${base}/api?hash=${hash}`, {
        method: "POST",
        headers: headers(page, {
          accept: "application/json, text/javascript, */*; q=0.01",
          "content-type": "application/x-www-form-urlencoded; charset=UTF-8",
          origin: base,
          "x-requested-with": "XMLHttpRequest",
          "sec-fetch-dest": "empty",
          "sec-fetch-mode": "cors",
          "sec-fetch-site": "same-origin"
        }),
        body: body.toString()
      })
      const refused = refusalOf(res, method)
      if (refused !== undefined) return yield* refused(session.label)
      if (res.status !== 200) return yield* unavailable(`Fragment ${method} answered HTTP ${res.status}`)
      const answer = parseJsonObject(res.text)
      if (answer === undefined) return yield* unavailable(`Fragment ${method} answered malformed JSON`)
      return answer
    }
  )

  const call = Effect.fn("FragmentTransport.call")(function*(page: FragmentPage, method: string, fields: FormFields) {
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

const parseJsonObject = (text: string): FragmentAnswer | undefined => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value as FragmentAnswer : undefined
  } catch {
    // not JSON (an HTML error page, a truncated body)
    return undefined
  }
}
