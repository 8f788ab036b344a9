/**
 * The HTTP connection pool every Fragment session shares: a plain keep-alive agent, or, with
 * FRAGMENT_PROXY, undici's ProxyAgent so every call (pages and api) leaves through that proxy
 * (CONNECT tunnel for https://fragment.com). Closed with the adapter's scope.
 */
import { Effect, Redacted } from "effect"
import type { Scope } from "effect"
import { Agent, type Dispatcher, ProxyAgent } from "undici"
import type { FragmentOptions } from "./FragmentConfig.ts"

export const makeFragmentDispatcher = (options: FragmentOptions): Effect.Effect<Dispatcher, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync((): Dispatcher =>
      options.proxy === undefined
        ? new Agent({ keepAliveTimeout: 10_000, connections: 8 })
        : new ProxyAgent({ uri: Redacted.value(options.proxy), keepAliveTimeout: 10_000, connections: 8 })
    ),
    (dispatcher) => Effect.promise(() => dispatcher.close())
  ).pipe(
    Effect.tap(() =>
      options.proxy === undefined ? Effect.void : Effect.logInfo("Fragment calls go through FRAGMENT_PROXY").pipe(
        Effect.annotateLogs({ proxy: proxyHost(options.proxy) })
      )
    )
  )

/** host:port of the proxy for logs (never its credentials). */
const proxyHost = (proxy: Redacted.Redacted<string>): string => {
  const url = new URL(Redacted.value(proxy))
  return url.host
}
