/**
 * Who may read the server's `/metrics`:
 * - outside sandbox, only callers with `Authorization: Bearer <METRICS_TOKEN>`; without `METRICS_TOKEN`
 *   `/metrics` is off (404), so nobody reads it until the operator gives it a token of its own;
 * - in sandbox mode also local callers: the client address (`@resale/webkit/ClientAddress.ts`, `TRUSTED_PROXIES`) is
 *   loopback and nothing relayed the request (a trusted proxy's client is remote whatever it forwards;
 *   a forwarding header says an unlisted proxy on this machine relayed it).
 * The operator token is never accepted here. Wrong tokens are counted per client address by a guard
 * of their own (`tokenGuardFor`, as the operator token's: free tries, then 429 + Retry-After; shared by
 * every server through PostgreSQL with `DATABASE_URL`, in memory on the embedded database).
 */
import {
  bearerOf,
  carriesForwarding,
  isLoopback,
  type MetricsAccess,
  metricsTooMany,
  metricsUnauthorized,
  PROBE_PATHS,
  tokenMatches
} from "@resale/observability/ProbeRoutes.ts"
import type { Throttling } from "@resale/core/throttles/Throttling.ts"
import { Effect, Option, Redacted } from "effect"
import type { HttpServerRequest } from "effect/http"
import { tokenGuardFor } from "@resale/webkit/OperatorTokenGuard.ts"
import { clientAddress, limitKey, type TrustedProxies, trustedProxies } from "@resale/webkit/ClientAddress.ts"
import type { HttpSettings } from "@resale/webkit/HttpConfig.ts"

type MetricsSettings = Pick<HttpSettings, "sandbox" | "metricsToken" | "trustedProxies"> & {
  /** With `DATABASE_URL` wrong tokens are counted in PostgreSQL, for every server. */
  readonly databaseUrl?: HttpSettings["databaseUrl"]
}

/** `/metrics` is served: in sandbox mode always (local callers), elsewhere once `METRICS_TOKEN` is set. */
export const metricsServed = (settings: MetricsSettings): boolean =>
  settings.sandbox || Option.isSome(settings.metricsToken)

/** The probe paths the server answers (`/metrics` only when served), for the 404/405 fallback. */
export const opsPaths = (settings: MetricsSettings): ReadonlyArray<string> =>
  metricsServed(settings) ? PROBE_PATHS : PROBE_PATHS.filter((path) => path !== "/metrics")

/** A loopback client that no proxy relayed, the client address decided through `TRUSTED_PROXIES`. */
export const isLocalCaller = (request: HttpServerRequest.HttpServerRequest, trusted: TrustedProxies): boolean => {
  const socket = Option.getOrElse(request.remoteAddress, () => "")
  if (trusted.has(socket) || carriesForwarding(request)) return false
  return isLoopback(clientAddress(request, trusted))
}

/** The access of `settings`; `undefined` when `/metrics` is off. */
export const metricsAccess = (settings: MetricsSettings): Effect.Effect<MetricsAccess | undefined, never, Throttling> =>
  Effect.gen(function* () {
    if (!metricsServed(settings)) return undefined
    const token = Option.map(settings.metricsToken, Redacted.value)
    const trusted = trustedProxies(settings.trustedProxies)
    const guard = yield* tokenGuardFor<"metrics bearer">(settings, "metrics token", "metrics")
    return (request) =>
      Effect.gen(function* () {
        if (settings.sandbox && isLocalCaller(request, trusted)) return undefined
        const given = bearerOf(request)
        // No token is no guess (a scraper not configured yet): refused, not counted.
        if (given === "") return metricsUnauthorized("metrics_token_missing")
        const client = limitKey(clientAddress(request, trusted))
        // A blocked address's token is not even compared.
        const wait = yield* guard.waitFor(client)
        if (wait > 0) return metricsTooMany(wait)
        if (Option.isNone(token) || !tokenMatches(given, token.value)) {
          yield* guard.failed(client, "metrics bearer")
          return metricsUnauthorized("metrics_token_invalid")
        }
        yield* guard.succeeded(client)
        return undefined
      })
  })
