/**
 * The `HttpClient` the adapters call the outside with (Bot API, web push delivery, the sandbox
 * world's faucet): effect's client over an undici agent, under the one retry policy
 * (`RetryPolicy.ts`) with its defaults. Fragment builds its client over its own dispatcher (proxy,
 * one pool for its sessions) with the same policy.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Duration, Effect, Layer } from "effect"
import { HttpClient } from "effect/http"
import { DEFAULT_POLICY, withRetryPolicy } from "./RetryPolicy.ts"

type AgentOptions = NonNullable<Parameters<typeof NodeHttpClient.layerUndiciOptions>[0]>

export const ATTEMPT_TIMEOUT = Duration.fromInputUnsafe(DEFAULT_POLICY.attemptTimeout)
export const RETRIES = DEFAULT_POLICY.times

/**
 * `HttpClient` with the policy, on an undici agent; `connect` adds socket options (web push passes a
 * lookup that refuses non-public addresses at connect time).
 */
export const outboundHttp = (connect?: AgentOptions["connect"]): Layer.Layer<HttpClient.HttpClient> =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(Effect.service(HttpClient.HttpClient), withRetryPolicy(DEFAULT_POLICY))
  ).pipe(Layer.provide(NodeHttpClient.layerUndiciOptions({
    connectTimeout: Duration.toMillis(ATTEMPT_TIMEOUT),
    ...(connect === undefined ? {} : { connect })
  })))

/** `HttpClient` with the policy, on undici. */
export const OutboundHttp: Layer.Layer<HttpClient.HttpClient> = outboundHttp()
