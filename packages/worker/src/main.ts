/**
 * Composition root of `npm run worker`: only the worker, against the PostgreSQL of DATABASE_URL
 * (migrated at start). Several may run at once: they coordinate through the database only.
 * The configuration is read and checked once (`@resale/config`): TON through toncenter and Fragment
 * when configured (always outside sandbox), otherwise this process runs its own sandbox chain and
 * Fragment simulator.
 */
import { NodeRuntime } from "@effect/platform-node"
import { AppConfig, reportConfigProblems } from "@resale/config"
import { FragmentMarketplace } from "@resale/marketplace"
import { Migrations } from "@resale/store/Migrations.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { TonCenterBlockchain } from "@resale/ton"
import { Effect, Layer, Option } from "effect"
import type { Blockchain } from "@resale/core/ports/Blockchain.ts"
import type { Marketplace } from "@resale/core/ports/Marketplace.ts"
import { SandboxWorld } from "./SandboxWorld.ts"
import { WorkerConfig } from "./WorkerConfig.ts"
import { makeWorkerLive } from "./WorkerLive.ts"

const program = Effect.gen(function*() {
  const app = yield* AppConfig
  const settings = yield* WorkerConfig
  const external = Option.all({ toncenter: app.toncenter, fragment: app.fragment })
  const world: Layer.Layer<Blockchain | Marketplace, unknown> = Option.match(external, {
    onSome: ({ fragment, toncenter }) =>
      Layer.mergeAll(
        TonCenterBlockchain.layerWith({
          endpoint: toncenter.endpoint,
          network: toncenter.network,
          timeout: toncenter.timeout,
          ...(Option.isSome(toncenter.apiKey) ? { apiKey: toncenter.apiKey.value } : {})
        }),
        FragmentMarketplace.layerWith({
          baseUrl: fragment.baseUrl,
          cookies: fragment.cookies,
          moreSessions: fragment.moreSessions,
          timeout: fragment.timeout,
          sessionHold: fragment.sessionHold,
          sessionWait: fragment.sessionWait,
          ...(Option.isSome(fragment.proxy) ? { proxy: fragment.proxy.value } : {})
        })
      ),
    onNone: () => SandboxWorld.layer(`${settings.dataDir}/worker-sandbox`)
  })
  if (Option.isNone(external)) {
    yield* Effect.logWarning("TONCENTER_URL and FRAGMENT_COOKIES not set: this worker runs its own sandbox chain and Fragment simulator")
  }
  const url = Option.getOrThrow(app.databaseUrl)
  const storage = PgStore.layer.pipe(Layer.provideMerge(Migrations.layer), Layer.provideMerge(PgConnection.layerFromUrl(url, app.pgPoolMax)))
  const worker = makeWorkerLive(Layer.succeed(WorkerConfig)(settings)).pipe(
    Layer.provide(world),
    Layer.provide(storage)
  )
  return yield* Layer.launch(worker)
})

program.pipe(
  Effect.provide(WorkerConfig.layer),
  Effect.provide(AppConfig.layer("worker")),
  reportConfigProblems,
  NodeRuntime.runMain
)
