/**
 * The `HttpClient` every Fragment session shares: effect's client over one undici pool, a plain
 * keep-alive agent or, with FRAGMENT_PROXY, undici's ProxyAgent, so every call (pages and api) leaves
 * through that proxy (CONNECT tunnel for https://fragment.com). Closed with the adapter's scope.
 * Requests carry no trace headers (we send what a browser sends), and spans show no path or query
 * (`withRedactedPathSpans`): the api hash is bound to a cookie session, pages name recipients.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Agent, type Dispatcher, ProxyAgent } from "@effect/platform-node/Undici"
import { Effect, Redacted } from "effect"
import type { Scope } from "effect"
import { HttpClient, UrlParams } from "effect/http"
import { wholePathRedacted, withRedactedPathSpans } from "@resale/outbound/RedactedSpans.ts"
import type { FragmentOptions } from "./FragmentConfig.ts"

const POOL = { keepAliveTimeout: 10_000, connections: 8 }

const makeDispatcher = (options: FragmentOptions): Effect.Effect<Dispatcher, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(
      (): Dispatcher =>
        options.proxy === undefined
          ? new Agent(POOL)
          : // a tunnel for plain http:// targets too (the simulator), as for https://fragment.com
            new ProxyAgent({ uri: Redacted.value(options.proxy), proxyTunnel: true, ...POOL })
    ),
    (dispatcher) => Effect.promise(() => dispatcher.close())
  ).pipe(
    Effect.tap(() =>
      options.proxy === undefined
        ? Effect.void
        : Effect.logInfo("Fragment calls go through FRAGMENT_PROXY").pipe(
            Effect.annotateLogs({ proxy: proxyHost(options.proxy) })
          )
    )
  )

export const makeFragmentHttp = (options: FragmentOptions): Effect.Effect<HttpClient.HttpClient, never, Scope.Scope> =>
  Effect.gen(function* () {
    const dispatcher = yield* makeDispatcher(options)
    const client = yield* NodeHttpClient.makeUndici.pipe(Effect.provideService(NodeHttpClient.Dispatcher, dispatcher))
    const redacted = [...(yield* UrlParams.CurrentRedactedNames), "hash"]
    const quiet = HttpClient.transformResponse(client, (response) =>
      response.pipe(
        Effect.provideService(HttpClient.TracerPropagationEnabled, false),
        Effect.provideService(UrlParams.CurrentRedactedNames, redacted)
      )
    )
    return withRedactedPathSpans(quiet, wholePathRedacted)
  })

/** host:port of the proxy for logs (never its credentials). */
const proxyHost = (proxy: Redacted.Redacted<string>): string => new URL(Redacted.value(proxy)).host
