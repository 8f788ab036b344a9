/**
 * The one HTTP client every adapter of this product calls the outside with (Bot API, web push
 * delivery, the sandbox world's faucet): effect's `HttpClient` over undici, with ONE policy:
 * - each attempt bounded by `ATTEMPT_TIMEOUT`;
 * - transient failures (no answer, timeout, 429, 5xx) retried `RETRIES` times with jittered
 *   exponential backoff, honouring the server's `Retry-After`.
 * What a final answer means (Gone, Rejected, ...) stays each adapter's business. Fragment's transport
 * and toncenter (through @ton/ton) keep their own clients: proxy support and 429 handling live there.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Duration, Effect, Layer, Schedule } from "effect"
import { HttpClient } from "effect/http"

type AgentOptions = NonNullable<Parameters<typeof NodeHttpClient.layerUndiciOptions>[0]>

export const ATTEMPT_TIMEOUT = Duration.seconds(10)
export const RETRIES = 2
export const FIRST_RETRY_DELAY = Duration.millis(250)

/**
 * `HttpClient` with the policy, on an undici agent; `connect` adds socket options (web push passes a
 * lookup that refuses non-public addresses at connect time).
 */
export const outboundHttp = (connect?: AgentOptions["connect"]): Layer.Layer<HttpClient.HttpClient> =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(Effect.service(HttpClient.HttpClient), (client) =>
      client.pipe(
        HttpClient.retryTransient({
          retryOn: "errors-and-responses",
          times: RETRIES,
          schedule: Schedule.exponential(FIRST_RETRY_DELAY).pipe(Schedule.jittered)
        })
      ))
  ).pipe(Layer.provide(NodeHttpClient.layerUndiciOptions({
    // An attempt that hangs fails as a transport error, which the policy retries.
    connectTimeout: Duration.toMillis(ATTEMPT_TIMEOUT),
    headersTimeout: Duration.toMillis(ATTEMPT_TIMEOUT),
    bodyTimeout: Duration.toMillis(ATTEMPT_TIMEOUT),
    ...(connect === undefined ? {} : { connect })
  })))

/** `HttpClient` with the policy, on undici. */
export const OutboundHttp: Layer.Layer<HttpClient.HttpClient> = outboundHttp()
