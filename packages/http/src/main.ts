/**
 * Composition root of `npm start`: configuration read once, then the server, the direct purchase
 * surface and (unless `WORKER=false`) the worker in one process, over one storage and, in sandbox
 * mode, one TON emulator and Fragment simulator (see `server/ServerLayer.ts`). SIGTERM / SIGINT stop
 * it gracefully: no new request or order is taken, running payments finish, the database closes.
 */
import { NodeRuntime } from "@effect/platform-node"
import { logStarted, runObserved } from "@resale/observability/Lifecycle.ts"
import { WorkerConfig } from "@resale/worker/WorkerConfig.ts"
import { Cause, Config, Effect, Exit, Layer, Option, Runtime } from "effect"
import { HttpConfig } from "./server/HttpConfig.ts"
import { serverLayer } from "./server/ServerLayer.ts"

const program = Effect.gen(function*() {
  const settings = yield* HttpConfig
  const inProcess = yield* Config.Boolean("WORKER").pipe(Config.withDefault(true))
  const worker = inProcess
    ? Option.some(yield* Effect.service(WorkerConfig).pipe(Effect.provide(WorkerConfig.layer)))
    : Option.none()
  // The worker follows the server's mode and data directory, so both use one sandbox world.
  const aligned = Option.map(worker, (w) => ({ ...w, sandbox: settings.sandbox, dataDir: settings.dataDir, publicUrl: settings.publicUrl }))
  yield* logStarted("server", { ...settings, worker: Option.getOrNull(aligned) })
  return yield* Layer.launch(serverLayer({ settings, worker: aligned }))
})

// A stop asked for by SIGTERM / SIGINT ends the program by interruption: that is a clean exit (0), not 130.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

// Errors are logged by `runObserved`, through the configured logger (JSON lines in production).
runObserved("server", program.pipe(Effect.provide(HttpConfig.layer))).pipe(
  NodeRuntime.runMain({ teardown, disableErrorReporting: true })
)
