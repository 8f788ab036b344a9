/**
 * The `HttpClient` the adapters call the outside with (Bot API, web push delivery, the sandbox
 * world's faucet): effect's client over an undici agent, under the one retry policy
 * (`RetryPolicy.ts`) with its defaults; integrators' webhooks use the bare client under the policy
 * with their own parameters. Fragment builds its client over its own dispatcher (proxy,
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
 * The bare `HttpClient` on an undici agent of its own, without the policy: for an adapter that puts
 * `retrying` around an attempt of its own (a webhook's reads the answer's status and nothing more).
 * `connect` adds socket options (a lookup that refuses non-public addresses at connect time).
 */
export const undiciHttp = (
  options: { readonly connect?: AgentOptions["connect"]; readonly connectTimeout?: Duration.Input } = {}
): Layer.Layer<HttpClient.HttpClient> =>
  NodeHttpClient.layerUndiciOptions({
    connectTimeout: Duration.toMillis(Duration.fromInputUnsafe(options.connectTimeout ?? ATTEMPT_TIMEOUT)),
    ...(options.connect === undefined ? {} : { connect: options.connect })
  })

/**
 * `HttpClient` with the policy, on an undici agent; `connect` adds socket options (web push passes a
 * lookup that refuses non-public addresses at connect time).
 */
export const outboundHttp = (connect?: AgentOptions["connect"]): Layer.Layer<HttpClient.HttpClient> =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(Effect.service(HttpClient.HttpClient), withRetryPolicy(DEFAULT_POLICY))
  ).pipe(Layer.provide(undiciHttp(connect === undefined ? {} : { connect })))

/** `HttpClient` with the policy, on undici. */
export const OutboundHttp: Layer.Layer<HttpClient.HttpClient> = outboundHttp()
