/**
 * The outside world of every process (server, worker, CLI), chosen once from the one configuration:
 * - production: toncenter and Fragment;
 * - sandbox: the shared sandbox world of DATA_DIR (`SharedSandbox.ts`); config refuses sandbox mode with
 *   TONCENTER_URL or FRAGMENT_COOKIES, so sandbox features never face a real chain or Fragment;
 * plus the GiftSender and the Notifier of `Messaging.ts`. Provided once at the top of a root, so
 * every consumer in the process shares the same instances.
 */
import { AppConfig, ConfigProblems } from "@resale/config"
import { BlockchainError } from "@resale/core/ports/Blockchain.ts"
import { FragmentMarketplace } from "@resale/marketplace/FragmentMarketplace.ts"
import { SandboxFaucet } from "@resale/ton/SandboxFaucet.ts"
import { TonCenterBlockchain } from "@resale/ton/TonCenterBlockchain.ts"
import { Duration, Effect, Layer, Option } from "effect"
import { giftPicturesLayer, giftSenderLayer, notifierLayer } from "./Messaging.ts"
import { PushPolicy, pushPolicyOf } from "@resale/core/push/PushEndpointRules.ts"

/** An outside chain has no faucet: asking it fails with a clear message. */
const noFaucet = Layer.succeed(SandboxFaucet)(
  SandboxFaucet.of({
    fund: () =>
      Effect.fail(
        new BlockchainError({
          reason: "NetworkError",
          message: "No sandbox faucet: this process uses an outside chain (TONCENTER_URL)"
        })
      )
  })
)

/** Blockchain, Marketplace and SandboxFaucet of the configured mode. */
const chain = Layer.unwrap(
  Effect.gen(function* () {
    const app = yield* AppConfig
    const outside = Option.all({ toncenter: app.toncenter, fragment: app.fragment })
    if (Option.isSome(outside)) {
      const { fragment, toncenter } = outside.value
      return Layer.mergeAll(
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
        }),
        noFaucet
      )
    }
    if (app.sandbox) {
      // Imported here, not at the top: production never loads the emulator and the simulators.
      const { sharedSandboxWorld } = yield* Effect.promise(() => import("./SharedSandbox.ts"))
      return sharedSandboxWorld(app.dataDir, {
        sessionHold: app.fragmentSessions.hold,
        sessionWait: app.fragmentSessions.wait,
        blockInterval: app.sandboxBlockInterval,
        fragmentSessions: app.sandboxFragmentSessions,
        magic: {
          timeoutMs: Duration.toMillis(app.sandboxMagic.slowSearch),
          lateMs: Duration.toMillis(app.sandboxMagic.lateDelivery)
        }
      })
    }
    // Only the CLI may get here (the server and the worker are refused at start without it).
    return yield* new ConfigProblems({
      mode: `production mode: ${app.modeReason}`,
      problems: ["FRAGMENT_COOKIES: required outside sandbox mode (a signed-in Fragment session)"]
    })
  })
)

/** GiftSender, its pictures and the Notifier of the configured mode. */
const messaging = Layer.unwrap(
  Effect.gen(function* () {
    const app = yield* AppConfig
    // The push hosts the server accepts subscriptions for (PUSH_ALLOWED_HOSTS) are the ones delivered to.
    return Layer.mergeAll(
      giftSenderLayer(app),
      giftPicturesLayer(app),
      notifierLayer(app).pipe(
        Layer.provide(Layer.succeed(PushPolicy, pushPolicyOf(app.pushAllowedHosts, app.sandbox, app.publicUrl)))
      )
    )
  })
)

export const World = {
  /** Chain and marketplace only (the CLI's reconciliation). */
  chain,
  /** Everything outside: Blockchain, Marketplace, SandboxFaucet, GiftSender, GiftPictures, Notifier. */
  layer: Layer.merge(chain, messaging)
} as const
