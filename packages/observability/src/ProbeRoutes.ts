/**
 * `/livez`, `/readyz` and `/metrics` for any process (the server, or a worker run apart):
 * - `/livez`: the process answers;
 * - `/readyz`: every check of `checks` says ok (database, migrations, worker loops...), else 503
 *   naming the failing ones;
 * - `/metrics`: effect's Prometheus text of every metric of the process, after `refresh` (gauges read
 *   at scrape time), for callers `metrics` lets in; without `metrics` it is not served at all (404).
 */
import { Effect, Option } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { createHash, timingSafeEqual } from "node:crypto"
import { sinceLastBeat } from "./WorkerHeartbeat.ts"

export const PROBE_PATHS = ["/livez", "/readyz", "/metrics"] as const

/** A worker loop silent this long is taken as stuck (the slowest loop beats every few seconds). */
const WORKER_SILENCE_MS = 120_000

/**
 * Who may read `/metrics`: the answer refusing `request` (401, 429...), or `undefined` when it may
 * read. The server's counts wrong tokens per client address (`http/src/server/MetricsAccess.ts`).
 */
export type MetricsAccess = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<HttpServerResponse.HttpServerResponse | undefined>

/** 127.0.0.0/8 or ::1, IPv4 also as `::ffff:127.x.y.z`. */
export const isLoopback = (address: string): boolean => {
  const plain = address.toLowerCase().startsWith("::ffff:") ? address.slice(7) : address
  return plain === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain)
}

/** A proxy relayed the request (it says so with `X-Forwarded-For` or `Forwarded`). */
export const carriesForwarding = (request: HttpServerRequest.HttpServerRequest): boolean =>
  request.headers["x-forwarded-for"] !== undefined || request.headers["forwarded"] !== undefined

/** The `Authorization: Bearer` token of `request`; "" when there is none. */
export const bearerOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const header = request.headers["authorization"]
  return header?.startsWith("Bearer ") ? header.slice(7).trim() : ""
}

const digest = (text: string) => createHash("sha256").update(text).digest()

/** Constant time whatever the lengths: the digests are compared, never the texts. */
export const tokenMatches = (given: string, expected: string): boolean =>
  given !== "" && timingSafeEqual(digest(given), digest(expected))

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store", ...headers } })

/** The 401 of `/metrics`: no token, or not the metrics token. */
export const metricsUnauthorized = (code: "metrics_token_missing" | "metrics_token_invalid") =>
  json({ detail: "/metrics needs Authorization: Bearer <METRICS_TOKEN>", code }, 401)

/** The 429 of `/metrics`: too many wrong tokens from this address. */
export const metricsTooMany = (seconds: number) =>
  json(
    { detail: `Too many wrong metrics tokens from your address; try again in ${seconds} s`, code: "rate_limited" },
    429,
    { "retry-after": String(seconds) }
  )

/**
 * Access without a per-address count of wrong tokens, for a worker's probe port (no proxy in front
 * of it): in sandbox mode loopback callers no proxy relayed read freely; anyone else needs the
 * metrics token. Outside sandbox, without a token, `/metrics` is off.
 */
export const plainMetricsAccess = (options: {
  readonly sandbox: boolean
  readonly token: Option.Option<string>
}): MetricsAccess | undefined => {
  if (!options.sandbox && Option.isNone(options.token)) return undefined
  return (request) =>
    Effect.sync(() => {
      const socket = Option.getOrElse(request.remoteAddress, () => "")
      if (options.sandbox && isLoopback(socket) && !carriesForwarding(request)) return undefined
      const given = bearerOf(request)
      if (given === "") return metricsUnauthorized("metrics_token_missing")
      return Option.isSome(options.token) && tokenMatches(given, options.token.value)
        ? undefined
        : metricsUnauthorized("metrics_token_invalid")
    })
}

/** "ok", or what is wrong: the worker loops of this process have not beaten lately. */
export const workerLoopsCheck = Effect.sync(() => {
  const silence = sinceLastBeat()
  return silence !== undefined && silence <= WORKER_SILENCE_MS ? "ok" : "stalled"
})

export interface ProbeOptions {
  /** Named readiness checks, each "ok" or a word saying what is wrong; run in order. */
  readonly checks: ReadonlyArray<readonly [name: string, check: Effect.Effect<string>]>
  /** Runs before each scrape (database gauges). */
  readonly refresh: Effect.Effect<void>
  /** Who may read `/metrics`; `undefined`: `/metrics` is off (404). */
  readonly metrics: MetricsAccess | undefined
}

export const ProbeRoutes = (options: ProbeOptions) =>
  HttpRouter.use((router) =>
    Effect.gen(function* () {
      const readiness = Effect.gen(function* () {
        const checks: Record<string, string> = {}
        for (const [name, check] of options.checks) checks[name] = yield* check
        const ready = Object.values(checks).every((check) => check === "ok")
        return json({ status: ready ? "ready" : "not ready", checks }, ready ? 200 : 503)
      })
      yield* router.add("GET", "/livez", json({ status: "ok" }))
      yield* router.add("GET", "/readyz", readiness)
      const access = options.metrics
      if (access === undefined) return
      const metrics = (request: HttpServerRequest.HttpServerRequest) =>
        Effect.gen(function* () {
          const refused = yield* access(request)
          if (refused !== undefined) return refused
          yield* options.refresh
          return HttpServerResponse.text(yield* PrometheusMetrics.format(), {
            contentType: "text/plain; version=0.0.4; charset=utf-8",
            headers: { "cache-control": "no-store" }
          })
        })
      yield* router.add("GET", "/metrics", metrics)
    })
  )
