/**
 * Composition root of `npm run worker`: only the worker, against the PostgreSQL of DATABASE_URL
 * (migrated at start). Several may run at once: they coordinate through the database only.
 * The configuration is read and checked once (`@resale/config`); the outside world is the one every
 * root uses (`@resale/world`): in sandbox mode the sandbox world of DATA_DIR, shared with the server
 * (a worker restarted mid-order finds the same chain and the same Fragment invoices).
 */
import { NodeRuntime } from "@effect/platform-node"
import { AppConfig, reportConfigProblems } from "@resale/config"
import { Migrations } from "@resale/store/Migrations.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { World } from "@resale/world"
import { Effect, Layer, Option } from "effect"
import { WorkerLive } from "./WorkerLive.ts"

const program = Effect.gen(function*() {
  const app = yield* AppConfig
  // Checked by the configuration for the worker's role.
  const url = Option.getOrThrow(app.databaseUrl)
  const storage = PgStore.layer.pipe(Layer.provideMerge(Migrations.layer), Layer.provideMerge(PgConnection.layerFromUrl(url, app.pgPoolMax)))
  return yield* Layer.launch(WorkerLive.pipe(Layer.provide(World.layer), Layer.provide(storage)))
})

program.pipe(
  Effect.provide(AppConfig.layer("worker")),
  reportConfigProblems,
  NodeRuntime.runMain
)
