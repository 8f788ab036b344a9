/**
 * A worker run apart (`npm run worker`) has no server to ask: with `WORKER_PROBE_PORT` set it answers
 * `/livez`, `/readyz` (database, and its loops still beating) and `/metrics` (its own metrics: hot
 * wallet balance, key derivations; the business gauges are the server's) on `HOST:WORKER_PROBE_PORT`.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { pingDatabase } from "@resale/observability/DatabaseWatch.ts"
import { ProbeRoutes, workerLoopsCheck } from "@resale/observability/ProbeRoutes.ts"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { HttpRouter } from "effect/http"
import { SqlClient } from "effect/sql/SqlClient"
import { createServer } from "node:http"

export interface WorkerProbeSettings {
  readonly host: string
  /** The token `/metrics` asks of callers from elsewhere when `METRICS_TOKEN` is not set. */
  readonly adminToken: Redacted.Redacted<string>
}

export const WorkerProbesLive = (settings: WorkerProbeSettings) =>
  Layer.unwrap(Effect.gen(function*() {
    const port = yield* Config.Port("WORKER_PROBE_PORT").pipe(Config.option)
    if (Option.isNone(port)) return Layer.empty
    const sql = yield* SqlClient
    const metricsToken = yield* Config.Redacted("METRICS_TOKEN").pipe(Config.option)
    const database = pingDatabase.pipe(Effect.map((up) => (up ? "ok" : "unreachable")), Effect.provideService(SqlClient, sql))
    const routes = ProbeRoutes({
      checks: [["database", database], ["worker", workerLoopsCheck]],
      refresh: Effect.void,
      token: Redacted.value(Option.getOrElse(metricsToken, () => settings.adminToken))
    })
    return HttpRouter.serve(routes, { disableLogger: true }).pipe(
      Layer.provide(NodeHttpServer.layer(createServer, { port: port.value, host: settings.host }))
    )
  }))
