/**
 * The operator's probes, next to `/healthz` (kept for existing checks):
 * - `GET /livez`: the process answers (no dependency checked: a restart would not fix the database);
 * - `GET /readyz`: the database answers, every migration of this build is applied, and the in-process
 *   worker's loops still beat (when the worker runs here); 503 with the failing check otherwise;
 * - `GET /metrics`: Prometheus text (effect's exporter) of the request metrics and the business gauges
 *   read from the database now, for the callers `MetricsAccess.ts` lets in (`METRICS_TOKEN`; never the
 *   operator token; off outside sandbox until it is set).
 */
import { migrations } from "@resale/store/Migrations.ts"
import { gaugeNames, readGauges } from "@resale/store/PgGauges.ts"
import { pingDatabase } from "@resale/observability/DatabaseWatch.ts"
import { refreshProcessGauges } from "@resale/observability/ProcessGauges.ts"
import { ProbeRoutes, workerLoopsCheck } from "@resale/observability/ProbeRoutes.ts"
import { Effect, Layer, Metric } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { metricsAccess } from "./MetricsAccess.ts"

const gauges = new Map(gaugeNames.map(({ help, name }) => [name, Metric.gauge(name, { description: help })]))
// Series set at the last scrape: one absent now (no row any more) is set back to 0, not left stale.
let lastSeries = new Map<string, { readonly name: string; readonly labels: Readonly<Record<string, string>> }>()

const refreshGauges = Effect.gen(function* () {
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

export interface OpsRoutesOptions {
  /** Whether the worker runs in this process (its loops are then part of readiness). */
  readonly workerInProcess: boolean
}

export const OpsRoutes = (options: OpsRoutesOptions) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const config = yield* HttpConfig
      const latest = Math.max(0, ...(yield* migrations).map(([id]) => id))
      const database = pingDatabase.pipe(
        Effect.map((up) => (up ? "ok" : "unreachable")),
        Effect.provideService(SqlClient, sql)
      )
      const migrationsApplied = sql<{
        readonly id: number | null
      }>`SELECT max(migration_id) AS id FROM effect_sql_migrations`.pipe(
        Effect.map((rows) => (Number(rows[0]?.id ?? 0) >= latest ? "ok" : "pending")),
        Effect.timeout("3 seconds"),
        Effect.catchCause(() => Effect.succeed("unknown"))
      )
      return ProbeRoutes({
        checks: [
          ["database", database],
          ["migrations", migrationsApplied],
          ...(options.workerInProcess ? [["worker", workerLoopsCheck] as const] : [])
        ],
        refresh: refreshGauges.pipe(
          Effect.andThen(
            refreshProcessGauges({
              ping: pingDatabase.pipe(Effect.provideService(SqlClient, sql)),
              worker: options.workerInProcess
            })
          ),
          Effect.provideService(SqlClient, sql)
        ),
        metrics: yield* metricsAccess(config)
      })
    })
  )
