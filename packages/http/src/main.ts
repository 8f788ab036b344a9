/**
 * Composition root of `npm start`: the one configuration read and checked once (every problem listed,
 * production refused without its secrets), then the server, the direct purchase surface and (unless
 * `WORKER=false`) the worker in one process, over one storage and one outside world (see
 * `server/ServerLayer.ts`). The only file of `http` that imports the worker. SIGTERM / SIGINT stop it
 * gracefully: no new request or order is taken, running payments finish, the database closes.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { AppConfig, readObservability, reportConfigProblems } from "@resale/config"
import { registerSecrets } from "@resale/observability/LogRedaction.ts"
import { logStarted, runObserved } from "@resale/observability/Lifecycle.ts"
import { WorkerLive } from "@resale/worker/WorkerLive.ts"
import { Cause, Effect, Exit, Layer, Runtime } from "effect"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { serverLayer } from "./server/ServerLayer.ts"

const program = Effect.gen(function* () {
  const app = yield* AppConfig
  const settings = yield* HttpConfig
  const worker = app.inProcessWorker ? WorkerLive : Layer.empty
  // Every secret of the configuration is scrubbed from every line from here on.
  registerSecrets(app.secretTexts())
  yield* logStarted("server", app)
  return yield* Layer.launch(serverLayer({ settings, worker, inProcessWorker: app.inProcessWorker }))
})

// A stop asked for by SIGTERM / SIGINT ends the program by interruption: that is a clean exit (0), not 130.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

// Errors are logged by `runObserved`, through the configured logger (JSON lines in production).
runObserved(
  "server",
  readObservability("server"),
  program.pipe(
    Effect.provide(HttpConfig.layer.pipe(Layer.provideMerge(AppConfig.layer("server")))),
    reportConfigProblems
  )
).pipe(NodeRuntime.runMain({ teardown, disableErrorReporting: true }))
