/**
 * Composition root of `npm run worker`: only the worker, against the PostgreSQL of DATABASE_URL
 * (migrated at start). Several may run at once: they coordinate through the database only.
 * TON through toncenter when TONCENTER_URL is set, Fragment when FRAGMENT_COOKIES is set; otherwise
 * this process runs its own sandbox chain and Fragment simulator (the server of `npm start` runs
 * the worker in-process on its own sandbox, which is what sandbox mode is for).
 */
import { NodeRuntime } from "@effect/platform-node"
import { FragmentMarketplace } from "@resale/marketplace"
import { Migrations } from "@resale/store/Migrations.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { databaseWatch } from "@resale/observability/DatabaseWatch.ts"
import { logStarted, runObserved, shutdownBegun } from "@resale/observability/Lifecycle.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { TonCenterBlockchain } from "@resale/ton"
import { Config, Effect, Layer, Option } from "effect"
import type { Blockchain } from "@resale/core/ports/Blockchain.ts"
import type { Marketplace } from "@resale/core/ports/Marketplace.ts"
import { SandboxWorld } from "./SandboxWorld.ts"
import { WorkerConfig } from "./WorkerConfig.ts"
import { makeWorkerLive } from "./WorkerLive.ts"

const program = Effect.gen(function*() {
  const settings = yield* WorkerConfig
  yield* Config.Redacted("DATABASE_URL")
  const toncenter = yield* Config.option(Config.String("TONCENTER_URL"))
  const fragment = yield* Config.option(Config.Redacted("FRAGMENT_COOKIES"))
  if (Option.isSome(toncenter) !== Option.isSome(fragment)) {
    return yield* Effect.die(new Error("set both TONCENTER_URL and FRAGMENT_COOKIES, or neither (sandbox)"))
  }
  const world: Layer.Layer<Blockchain | Marketplace, unknown> = Option.isSome(toncenter)
    ? Layer.mergeAll(TonCenterBlockchain.layer, FragmentMarketplace.layer)
    : SandboxWorld.layer(`${settings.dataDir}/worker-sandbox`)
  if (Option.isNone(toncenter)) {
    yield* Effect.logWarning("TONCENTER_URL and FRAGMENT_COOKIES not set: this worker runs its own sandbox chain and Fragment simulator")
  }
  yield* logStarted("worker", { ...settings, toncenterUrl: toncenter })
  const storage = PgStore.layer.pipe(Layer.provideMerge(Migrations.layer), Layer.provideMerge(PgConnection.layerConfig))
  const worker = Layer.mergeAll(makeWorkerLive(Layer.succeed(WorkerConfig)(settings)).pipe(Layer.provide(world)), databaseWatch()).pipe(
    Layer.provide(storage)
  )
  return yield* Layer.launch(shutdownBegun("worker").pipe(Layer.provide(worker)))
})

// Errors are logged by `runObserved`, through the configured logger (JSON lines in production).
runObserved("worker", program.pipe(Effect.provide(WorkerConfig.layer))).pipe(
  NodeRuntime.runMain({ disableErrorReporting: true })
)
