/**
 * The operator's probes, next to `/healthz` (kept for existing checks):
 * - `GET /livez`: the process answers (no dependency checked: a restart would not fix the database);
 * - `GET /readyz`: the database answers, every migration of this build is applied, and the in-process
 *   worker's loops still beat (when the worker runs here); 503 with the failing check otherwise;
 * - `GET /metrics`: Prometheus text (effect's exporter) of the request metrics and the business gauges
 *   read from the database now. Open to loopback callers that did not come through a proxy; anyone
 *   else needs `Authorization: Bearer <ADMIN_TOKEN>` (or `METRICS_TOKEN` when set).
 */
import { migrations } from "@resale/store/Migrations.ts"
import { gaugeNames, readGauges } from "@resale/store/PgGauges.ts"
import { pingDatabase } from "@resale/observability/DatabaseWatch.ts"
import { sinceLastBeat } from "@resale/observability/WorkerHeartbeat.ts"
import { Config, Effect, Metric, Option, Redacted } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { SqlClient } from "effect/sql/SqlClient"
import { safeEqual } from "../auth/TelegramLogin.ts"
import { HttpConfig } from "./HttpConfig.ts"

export const OPS_PATHS = ["/livez", "/readyz", "/metrics"] as const

/** A worker loop silent this long is taken as stuck (the slowest loop beats every few seconds). */
const WORKER_SILENCE_MS = 120_000

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"])

/** Loopback and not relayed by a proxy on this machine (a proxy adds X-Forwarded-For or Forwarded). */
const isLocalCaller = (request: HttpServerRequest.HttpServerRequest): boolean =>
  Option.match(request.remoteAddress, { onNone: () => false, onSome: (address) => LOOPBACK.has(address) }) &&
  request.headers["x-forwarded-for"] === undefined && request.headers["forwarded"] === undefined

const bearer = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const header = request.headers["authorization"]
  return header?.startsWith("Bearer ") ? header.slice(7).trim() : undefined
}

const gauges = new Map(gaugeNames.map(({ help, name }) => [name, Metric.gauge(name, { description: help })]))
// Series set at the last scrape: one absent now (no row any more) is set back to 0, not left stale.
let lastSeries = new Map<string, { readonly name: string; readonly labels: Readonly<Record<string, string>> }>()

const refreshGauges = Effect.gen(function*() {
  const samples = yield* readGauges
  const seen = new Map<string, { readonly name: string; readonly labels: Readonly<Record<string, string>> }>()
  const set = (name: string, labels: Readonly<Record<string, string>>, value: number) => {
    const gauge = gauges.get(name)
    return gauge === undefined ? Effect.void : Metric.update(Metric.withAttributes(gauge, labels), value)
  }
  for (const sample of samples) {
    seen.set(`${sample.name}${JSON.stringify(sample.labels)}`, sample)
    yield* set(sample.name, sample.labels, sample.value)
  }
  for (const [key, series] of lastSeries) if (!seen.has(key)) yield* set(series.name, series.labels, 0)
  lastSeries = seen
})

const json = (body: unknown, status = 200) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })

export interface OpsRoutesOptions {
  /** Whether the worker runs in this process (its loops are then part of readiness). */
  readonly workerInProcess: boolean
}

export const OpsRoutes = (options: OpsRoutesOptions) =>
  HttpRouter.use((router) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const config = yield* HttpConfig
      const metricsToken = yield* Config.Redacted("METRICS_TOKEN").pipe(Config.option)
      const token = Redacted.value(Option.getOrElse(metricsToken, () => config.adminToken))
      const latest = Math.max(0, ...(yield* migrations).map(([id]) => id))

      const migrationsApplied = sql<{ readonly id: number | null }>`SELECT max(migration_id) AS id FROM effect_sql_migrations`.pipe(
        Effect.map((rows) => Number(rows[0]?.id ?? 0) >= latest),
        Effect.catchCause(() => Effect.succeed(false))
      )

      const readiness = Effect.gen(function*() {
        const database = yield* pingDatabase
        const checks: Record<string, string> = {
          database: database ? "ok" : "unreachable",
          migrations: !database ? "unknown" : (yield* migrationsApplied) ? "ok" : "pending"
        }
        if (options.workerInProcess) {
          const silence = sinceLastBeat()
          checks["worker"] = silence !== undefined && silence <= WORKER_SILENCE_MS ? "ok" : "stalled"
        }
        const ready = Object.values(checks).every((check) => check === "ok")
        return json({ status: ready ? "ready" : "not ready", checks }, ready ? 200 : 503)
      }).pipe(Effect.provideService(SqlClient, sql))

      const metrics = (request: HttpServerRequest.HttpServerRequest) =>
        Effect.gen(function*() {
          if (!isLocalCaller(request) && !safeEqual(bearer(request) ?? "", token)) {
            return json({ detail: "metrics need Authorization: Bearer <token> from outside this machine" }, 401)
          }
          yield* refreshGauges
          const text = yield* PrometheusMetrics.format()
          return HttpServerResponse.text(text, {
            contentType: "text/plain; version=0.0.4; charset=utf-8",
            headers: { "cache-control": "no-store" }
          })
        }).pipe(Effect.provideService(SqlClient, sql))

      yield* router.add("GET", "/livez", json({ status: "ok" }))
      yield* router.add("GET", "/readyz", readiness)
      yield* router.add("GET", "/metrics", metrics)
    })
  )
