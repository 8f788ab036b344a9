/**
 * A worker run apart (`npm run worker`) has no server to ask: with `WORKER_PROBE_PORT` set it answers
 * `/livez`, `/readyz` (database, and its loops still beating) and `/metrics` (its own metrics: hot
 * wallet balance, key derivations; the business gauges are the server's) on `HOST:WORKER_PROBE_PORT`.
 * `/metrics` asks for `METRICS_TOKEN` (never the operator token) and is off outside sandbox until it is
 * set; in sandbox mode loopback callers no proxy relayed need none.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { pingDatabase } from "@resale/observability/DatabaseWatch.ts"
import { refreshProcessGauges } from "@resale/observability/ProcessGauges.ts"
import { plainMetricsAccess, ProbeRoutes, workerLoopsCheck } from "@resale/observability/ProbeRoutes.ts"
import { Effect, Layer, Option, Redacted } from "effect"
import { HttpRouter } from "effect/http"
import { SqlClient } from "effect/sql/SqlClient"
import { createServer } from "node:http"

export interface WorkerProbeSettings {
  readonly host: string
  /** `WORKER_PROBE_PORT`; none: no probes are served. */
  readonly port: Option.Option<number>
  /** `METRICS_TOKEN`, when set. */
  readonly metricsToken: Option.Option<Redacted.Redacted<string>>
  readonly sandbox: boolean
}

export const WorkerProbesLive = (settings: WorkerProbeSettings) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const port = settings.port
      if (Option.isNone(port)) return Layer.empty
      const sql = yield* SqlClient
      const database = pingDatabase.pipe(
        Effect.map((up) => (up ? "ok" : "unreachable")),
        Effect.provideService(SqlClient, sql)
      )
      const routes = ProbeRoutes({
        checks: [
          ["database", database],
          ["worker", workerLoopsCheck]
        ],
        refresh: refreshProcessGauges({ ping: pingDatabase.pipe(Effect.provideService(SqlClient, sql)), worker: true }),
        metrics: plainMetricsAccess({
          sandbox: settings.sandbox,
          token: Option.map(settings.metricsToken, Redacted.value)
        })
      })
      return HttpRouter.serve(routes, { disableLogger: true }).pipe(
        Layer.provide(NodeHttpServer.layer(createServer, { port: port.value, host: settings.host }))
      )
    })
  )
