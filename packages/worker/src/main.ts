/**
 * Composition root of `npm run worker`: only the worker, against the PostgreSQL of DATABASE_URL
 * (migrated at start). Several may run at once: they coordinate through the database only.
 * The configuration is read and checked once (`@resale/config`); the outside world is the one every
 * root uses (`@resale/world`): in sandbox mode the sandbox world of DATA_DIR, shared with the server
 * (a worker restarted mid-order finds the same chain and the same Fragment invoices).
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { AppConfig, readObservability, reportConfigProblems } from "@resale/config"
import { databaseWatch } from "@resale/observability/DatabaseWatch.ts"
import { registerSecrets } from "@resale/observability/LogRedaction.ts"
import { logStarted, runObserved, shutdownBegun, stopCleanly } from "@resale/observability/Lifecycle.ts"
import { StoreLive } from "@resale/store/StoreLive.ts"
import { World } from "@resale/world"
import { Effect, Layer } from "effect"
import { WorkerLive } from "./WorkerLive.ts"
import { WorkerProbesLive } from "./WorkerProbesLive.ts"

const program = Effect.gen(function* () {
  const app = yield* AppConfig
  // Every secret of the configuration is scrubbed from every line from here on.
  registerSecrets(app.secretTexts())
  yield* logStarted("worker", app)
  // DATABASE_URL: required for the worker's role by the configuration.
  const storage = StoreLive.layer(app)
  const probes = WorkerProbesLive({
    host: app.host,
    port: app.workerProbePort,
    sandbox: app.sandbox,
    metricsToken: app.metricsToken
  })
  const worker = Layer.mergeAll(WorkerLive.pipe(Layer.provide(World.layer)), databaseWatch(), probes).pipe(
    Layer.provide(storage)
  )
  // `shutdown begun` is the first line once a stop is asked for (its layer is built last).
  return yield* Layer.launch(shutdownBegun("worker").pipe(Layer.provide(worker)))
})

// Errors are logged by `runObserved`, through the configured logger (JSON lines in production).
runObserved(
  "worker",
  readObservability("worker"),
  program.pipe(Effect.provide(AppConfig.layer("worker")), reportConfigProblems)
).pipe(NodeRuntime.runMain({ disableErrorReporting: true, teardown: stopCleanly }))
