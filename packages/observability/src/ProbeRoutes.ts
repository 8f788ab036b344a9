/**
 * `/livez`, `/readyz` and `/metrics` for any process (the server, or a worker run apart):
 * - `/livez`: the process answers;
 * - `/readyz`: every check of `checks` says ok (database, migrations, worker loops...), else 503
 *   naming the failing ones;
 * - `/metrics`: effect's Prometheus text of every metric of the process, after `refresh` (gauges read
 *   at scrape time). Open to loopback callers not relayed by a proxy; others need
 *   `Authorization: Bearer <token>`, compared in constant time.
 */
import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { createHash, timingSafeEqual } from "node:crypto"
import { sinceLastBeat } from "./WorkerHeartbeat.ts"

export const PROBE_PATHS = ["/livez", "/readyz", "/metrics"] as const

/** A worker loop silent this long is taken as stuck (the slowest loop beats every few seconds). */
const WORKER_SILENCE_MS = 120_000

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"])

/** Loopback and not relayed by a proxy on this machine (a proxy adds X-Forwarded-For or Forwarded). */
const isLocalCaller = (request: HttpServerRequest.HttpServerRequest): boolean =>
  request.remoteAddress._tag === "Some" &&
  LOOPBACK.has(request.remoteAddress.value) &&
  request.headers["x-forwarded-for"] === undefined &&
  request.headers["forwarded"] === undefined

const digest = (text: string) => createHash("sha256").update(text).digest()

const bearerMatches = (request: HttpServerRequest.HttpServerRequest, token: string): boolean => {
  const header = request.headers["authorization"]
  const given = header?.startsWith("Bearer ") ? header.slice(7).trim() : ""
  return given !== "" && timingSafeEqual(digest(given), digest(token))
}

const json = (body: unknown, status = 200) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })

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
  /** The bearer token callers from elsewhere need for `/metrics`. */
  readonly token: string
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
      const metrics = (request: HttpServerRequest.HttpServerRequest) =>
        Effect.gen(function* () {
          if (!isLocalCaller(request) && !bearerMatches(request, options.token)) {
            return json({ detail: "metrics need Authorization: Bearer <token> from outside this machine" }, 401)
          }
          yield* options.refresh
          return HttpServerResponse.text(yield* PrometheusMetrics.format(), {
            contentType: "text/plain; version=0.0.4; charset=utf-8",
            headers: { "cache-control": "no-store" }
          })
        })
      yield* router.add("GET", "/livez", json({ status: "ok" }))
      yield* router.add("GET", "/readyz", readiness)
      yield* router.add("GET", "/metrics", metrics)
    })
  )
