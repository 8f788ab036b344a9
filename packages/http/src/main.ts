/**
 * Composition root of `npm start`: the one configuration read and checked once (every problem listed,
 * production refused without its secrets), then the server, the direct purchase surface and (unless
 * `WORKER=false`) the worker in one process, over one storage and one outside world (see
 * `server/ServerLayer.ts`). SIGTERM / SIGINT stop it gracefully: no new request or order is taken,
 * running payments finish, the database closes.
 */
import { NodeRuntime } from "@effect/platform-node"
import { AppConfig, reportConfigProblems } from "@resale/config"
import { WorkerConfig } from "@resale/worker/WorkerConfig.ts"
import { Cause, Effect, Exit, Layer, Option, Runtime } from "effect"
import { HttpConfig } from "./server/HttpConfig.ts"
import { serverLayer } from "./server/ServerLayer.ts"

const program = Effect.gen(function*() {
  const app = yield* AppConfig
  const settings = yield* HttpConfig
  const worker = app.inProcessWorker ? Option.some(yield* WorkerConfig) : Option.none()
  return yield* Layer.launch(serverLayer({ settings, worker }))
})

// A stop asked for by SIGTERM / SIGINT ends the program by interruption: that is a clean exit (0), not 130.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

program.pipe(
  Effect.provide(Layer.mergeAll(HttpConfig.layer, WorkerConfig.layer)),
  Effect.provide(AppConfig.layer("server")),
  reportConfigProblems,
  NodeRuntime.runMain({ teardown })
)
