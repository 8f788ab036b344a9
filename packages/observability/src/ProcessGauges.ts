/**
 * Gauges of this process, set at scrape time, for the alert rules of `deploy/monitoring`:
 * - `resale_database_up`: 1 when the database answered the scrape's ping, 0 otherwise (the business
 *   gauges, read from the database, are left out while it is down, so this is what says why);
 * - `resale_worker_heartbeat_age_seconds`: seconds since the worker loops of this process last beat
 *   (only where a worker runs): a stuck or dead worker stops beating and the age grows.
 */
import { Effect, Metric } from "effect"
import { sinceLastBeat } from "./WorkerHeartbeat.ts"

const databaseUp = Metric.gauge("resale_database_up", {
  description: "1 when the database answered this scrape's ping, else 0"
})

const heartbeatAge = Metric.gauge("resale_worker_heartbeat_age_seconds", {
  description: "Seconds since the worker loops of this process last beat (a stuck worker stops beating)"
})

export interface ProcessGaugeOptions {
  /** Whether the database answers now (`pingDatabase`). */
  readonly ping: Effect.Effect<boolean>
  /** Whether worker loops run in this process. */
  readonly worker: boolean
}

/** Sets the process gauges; run before each scrape. */
export const refreshProcessGauges = (options: ProcessGaugeOptions): Effect.Effect<void> =>
  Effect.gen(function* () {
    yield* Metric.update(databaseUp, (yield* options.ping) ? 1 : 0)
    if (!options.worker) return
    // Before the first beat the worker is starting: as old as the process, so a worker that never beats alerts too.
    const since = sinceLastBeat() ?? process.uptime() * 1000
    yield* Metric.update(heartbeatAge, since / 1000)
  })
