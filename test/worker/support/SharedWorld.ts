/**
 * Several independent workers on one database, as separate processes would be: each with its own
 * connection pool, its own Blockchain adapter instance (own in-process wallet locks) over one TON VM,
 * its own Fragment adapter on the one simulator (every worker configured with the same cookie
 * sessions, as FRAGMENT_SESSIONS would), the emulator's faucet for the hot wallet, and one simulated
 * Telegram for gifts.
 */
import { GiftSender } from "@resale/core/ports/GiftSender.ts"
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { Marketplace } from "@resale/core/ports/Marketplace.ts"
import { type FragmentSandbox, type FragmentOptions, makeFragmentMarketplace } from "@resale/marketplace"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { makeTonBlockchain, SandboxBlockchain } from "@resale/ton"
import { sandboxClient } from "@resale/ton/SandboxBlockchain.ts"
import { SandboxFaucet } from "@resale/ton/SandboxFaucet.ts"
import { WorkerConfig, type WorkerSettings } from "@resale/worker/WorkerConfig.ts"
import { WorkerJobsLive } from "@resale/worker/WorkerLive.ts"
import { Context, Effect, Layer, Redacted } from "effect"
import { SilentNotifier } from "./WorkerHarness.ts"

/** A fresh, migrated database on the test server, dropped with the scope; its URL. */
export const freshDatabase = IsolatedPostgres.database.pipe(Effect.orDie)

/**
 * `count` Fragment cookie sessions the simulator issued besides its main one, as production runs
 * several FRAGMENT_COOKIES_<NAME> side by side (one purchase at a time per session, any number of
 * sessions in parallel). Every worker must get the same list: the holds are shared by session name.
 */
export const fragmentSessions = (
  fragment: FragmentSandbox["Service"],
  count: number
): NonNullable<FragmentOptions["moreSessions"]> =>
  Array.from({ length: count }, (_, i) => ({
    label: `extra${i + 1}`,
    cookies: Redacted.make(fragment.control.newSession())
  }))

/** One worker: its own pool, chain adapter and Fragment adapter over the shared world. */
export const oneWorker = (
  url: string,
  world: {
    readonly sandbox: SandboxBlockchain["Service"]
    readonly fragment: FragmentSandbox["Service"]
    /** the same extra sessions for every worker (`fragmentSessions`) */
    readonly fragmentSessions?: FragmentOptions["moreSessions"]
    readonly gifts: GiftSender["Service"]
  },
  settings: Partial<WorkerSettings>
) => {
  const adapters = Layer.effectContext(
    Effect.gen(function* () {
      const chain = makeTonBlockchain(sandboxClient(world.sandbox.emulator, Effect.void), { expiryMarginSeconds: 5 })
      const market = yield* makeFragmentMarketplace(
        world.fragment.fragmentOptions({
          timeout: "3 seconds",
          ...(world.fragmentSessions === undefined ? {} : { moreSessions: world.fragmentSessions })
        })
      )
      return Context.make(Blockchain, chain).pipe(
        Context.add(Marketplace, market),
        Context.add(SandboxBlockchain, world.sandbox),
        // the hot wallet is funded from the emulator's faucet, as in sandbox mode
        Context.add(SandboxFaucet, SandboxFaucet.of({ fund: world.sandbox.fund }))
      )
    })
  )
  const store = PgStore.layer.pipe(Layer.provide(Layer.fresh(PgConnection.layerFromUrl(url, 5))))
  return WorkerJobsLive.pipe(
    Layer.provide(
      Layer.mergeAll(Layer.succeed(GiftSender)(world.gifts), SilentNotifier, WorkerConfig.layerTest(settings))
    ),
    // the Fragment adapter serializes purchases per session through the shared database, like separate processes
    Layer.provide(adapters.pipe(Layer.provideMerge(store)))
  )
}
