/**
 * The product's one retry policy for outbound HTTP, applied to one attempt (a request and, where the
 * caller reads it inside the attempt, its body):
 * - every attempt is bounded by `attemptTimeout` (it fails with `Cause.TimeoutError`);
 * - HTTP 429 is retried: the server refused to process the request, so repeating it does nothing twice;
 * - a `repeatable` request (doing it twice is harmless) is also retried after no answer, a timeout,
 *   408 or 5xx (`repeatOn: "connection"`: only after no answer that was not a timeout, a refused or
 *   dropped connection; a slow or failing server is left to the caller's own schedule). Any other
 *   request (one that may open an invoice or report a payment) is not: it may have taken effect, and
 *   only its caller can tell;
 * - waits grow exponentially from `firstDelay`, jittered, never shorter than the server's
 *   `Retry-After`; a `Retry-After` beyond `longestWait` ends the retries at once;
 * - at most `times` retries; then the last answer (or failure) is the caller's to interpret.
 */
import { Cause, Clock, Duration, Effect, Random, Result } from "effect"
import { Headers, HttpClient, HttpClientError } from "effect/http"

export interface RetryPolicy {
  readonly repeatable: boolean
  /** What a repeatable request is tried again after; absent: "transient" (see above). */
  readonly repeatOn?: "transient" | "connection"
  readonly times: number
  readonly firstDelay: Duration.Input
  readonly attemptTimeout: Duration.Input
  readonly longestWait: Duration.Input
}

/** The defaults: the Bot API, web push delivery and the sandbox faucet use them as they are. */
export const DEFAULT_POLICY: RetryPolicy = {
  repeatable: true,
  times: 2,
  firstDelay: Duration.millis(250),
  attemptTimeout: Duration.seconds(10),
  longestWait: Duration.seconds(30)
}

/** What the policy looks at in an answer (an `HttpClientResponse`, or a caller's read of one). */
export interface Answer {
  readonly status: number
  readonly headers: Headers.Headers
}

const TRANSIENT_STATUS = new Set([408, 500, 502, 503, 504])

/** The answer behind a failure, when the failure is an HTTP status (a client that filters statuses). */
const answerOf = (error: unknown): Answer | undefined =>
  HttpClientError.isHttpClientError(error) && error.reason._tag === "StatusCodeError"
    ? error.reason.response
    : undefined

/** How long the server asked us to wait, if it said. */
const retryAfterOf = (answer: Answer | undefined, now: number): Duration.Duration | undefined => {
  const value = answer?.headers["retry-after"]
  if (value === undefined) return undefined
  const parsed = Headers.parseRetryAfter(value)
  return Result.isSuccess(parsed) ? Headers.retryAfterDelay(parsed.success, now) : undefined
}

/** Whether this outcome of an attempt may be tried again under `policy`. */
export const isRetryable = <A extends Answer>(policy: RetryPolicy, outcome: Result.Result<A, unknown>): boolean => {
  const onConnection = policy.repeatOn === "connection"
  if (Result.isSuccess(outcome)) {
    const status = outcome.success.status
    return status === 429 || (policy.repeatable && !onConnection && TRANSIENT_STATUS.has(status))
  }
  const error = outcome.failure
  if (answerOf(error)?.status === 429) return true
  if (!policy.repeatable) return false
  if (onConnection) return HttpClientError.isHttpClientError(error) && error.reason._tag === "TransportError"
  return HttpClient.isTransientError(error) || Cause.isTimeoutError(error)
}

/** Backoff before retry number `retry` (0-based): exponential, jittered by +-20%, at least Retry-After. */
const waitBefore = (policy: RetryPolicy, retry: number, answer: Answer | undefined) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const jitter = yield* Random.nextBetween(0.8, 1.2)
    const backoff = Duration.times(Duration.fromInputUnsafe(policy.firstDelay), 2 ** retry * jitter)
    const asked = retryAfterOf(answer, now)
    if (asked === undefined) return backoff
    return Duration.isGreaterThan(asked, Duration.fromInputUnsafe(policy.longestWait))
      ? undefined
      : Duration.max(backoff, asked)
  })

/** `attempt` under the policy: timed out per attempt, repeated as the policy allows. */
export const retrying =
  (policy: RetryPolicy) =>
  <A extends Answer, E, R>(attempt: Effect.Effect<A, E, R>): Effect.Effect<A, E | Cause.TimeoutError, R> => {
    const bounded = Effect.result(Effect.timeout(attempt, policy.attemptTimeout))
    const loop = (retry: number): Effect.Effect<A, E | Cause.TimeoutError, R> =>
      Effect.flatMap(bounded, (outcome) => {
        if (retry >= policy.times || !isRetryable(policy, outcome)) return Effect.fromResult(outcome)
        const answer = Result.isSuccess(outcome) ? outcome.success : answerOf(outcome.failure)
        return Effect.flatMap(waitBefore(policy, retry, answer), (wait) =>
          wait === undefined ? Effect.fromResult(outcome) : Effect.andThen(Effect.sleep(wait), loop(retry + 1))
        )
      })
    return loop(0)
  }

/**
 * An `HttpClient` under the policy. Each attempt reads the whole body (undici's answer keeps it for
 * the caller), so a server that stalls mid-body is bounded as well and retried answers free their
 * connection. An attempt past its time is a `TransportError` (no answer), as undici's own would be.
 */
export const withRetryPolicy =
  (policy: RetryPolicy) =>
  (client: HttpClient.HttpClient): HttpClient.HttpClient =>
    HttpClient.transform(client, (response, request) =>
      response.pipe(
        Effect.tap((answer) => answer.arrayBuffer),
        retrying(policy),
        Effect.catchIf(Cause.isTimeoutError, (cause) =>
          Effect.fail(
            new HttpClientError.HttpClientError({
              reason: new HttpClientError.TransportError({
                request,
                cause,
                description: `no answer within ${Duration.format(Duration.fromInputUnsafe(policy.attemptTimeout))}`
              })
            })
          )
        )
      )
    )
