/**
 * The whole product in one process for the browser tests, as `npm start` runs it in sandbox mode:
 * the HTTP server (every /v2 route and the web UI) on a loopback port, the worker fulfilling orders
 * and matching payments, the TON VM of @ton/sandbox and the Fragment simulator behind the real
 * adapter, all over a fresh database on the real PostgreSQL server.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { FragmentSandbox } from "@resale/marketplace"
import type { SimulatorControl } from "@resale/marketplace/simulator/SimulatorControl.ts"
import type { MagicOptions } from "@resale/marketplace/simulator/SimulatorMagic.ts"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { HttpConfig, type HttpSettings } from "@resale/webkit/HttpConfig.ts"
import { DatabasePing, HttpServices, httpApp } from "@resale/http/server/HttpApp.ts"
import { serveLean } from "@resale/http/server/LeanServe.ts"
import { WalletCheckoutLive } from "@resale/http/server/WalletCheckoutLive.ts"
import { DirectHttpConfig, type DirectHttpSettings } from "@resale/http/direct/DirectConfig.ts"
import { WEB_ROUTES, WebUi } from "@resale/web/WebUi.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { databaseUrl } from "@resale/store/testing/TestDatabase.ts"
import { SqlClient } from "effect/sql/SqlClient"
import { SandboxBlockchain } from "@resale/ton"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"
import type { PaymentSeen } from "@resale/marketplace/simulator/SimulatorApi.ts"
import { WorkerConfig, type WorkerSettings } from "@resale/worker/WorkerConfig.ts"
import { WorkerJobsLive } from "@resale/worker/WorkerLive.ts"
import { giftSenderLayer, notifierLayer } from "@resale/world"
import { SandboxFaucet } from "@resale/ton/SandboxFaucet.ts"
import { DEFAULT_PUSH_HOSTS, PushPolicy, pushPolicyOf } from "@resale/core/push/PushEndpointRules.ts"
import { Context, Duration, Effect, Layer, Option, Redacted, References } from "effect"
import { HttpServer } from "effect/http"
import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"

export const ADMIN_TOKEN = "web-test-admin-token"

/** The running product: its base URL, and the Fragment simulator's switches (to make an order fail). */
export class WebWorld extends Context.Service<
  WebWorld,
  {
    readonly url: string
    readonly market: SimulatorControl
    /** The product's database and data directory, for the `resale` CLI run beside the server. */
    readonly databaseUrl: string
    readonly dataDir: string
  }
>()("test/web/WebWorld") {}

/** The sandbox world's own timings: the hot wallet's message lifetime, the test recipients' delays. */
export interface SandboxTimings {
  /** How long a sent message stays valid (a lost payment is known unpaid once it expired). */
  readonly ttlSeconds?: number
  readonly expiryMarginSeconds?: number
  /** `SANDBOX_SLOW_SEARCH` and `SANDBOX_LATE_DELIVERY`, in milliseconds. */
  readonly magic?: MagicOptions
  /** Fragment delivers only payments seen on the chain (a payment the chain loses is never delivered). */
  readonly chainPaid?: boolean
}

/**
 * `worker`: settings of the in-process worker over the test defaults (e.g. a short attention limit);
 * `http`: the server's (e.g. a bot name, so the home page shows the Telegram sign-in widget);
 * `sandbox`: the chain's and the simulator's timings; `direct`: the direct surface's settings, whose
 * rate limit the wallet page's posts meet too.
 */
export const webWorldLayer = (
  worker: Partial<WorkerSettings> = {},
  http: Partial<HttpSettings> = {},
  sandbox: SandboxTimings = {},
  direct: Partial<DirectHttpSettings> = {}
) => {
  const dataDir = mkdtempSync(join(tmpdir(), "resale-web-"))
  const chain = SandboxBlockchain.layerWith({
    expiryMarginSeconds: sandbox.expiryMarginSeconds ?? 5,
    ...(sandbox.ttlSeconds === undefined ? {} : { ttlSeconds: sandbox.ttlSeconds })
  })
  // With the sandbox's test recipients, as `npm start` runs it (docs/sandbox.md, "Test recipients");
  // `chainPaid`: Fragment delivers only what it sees paid on the emulated chain, as in `npm start`.
  const market = (paymentSeen?: PaymentSeen) =>
    FragmentSandbox.layer(
      { magic: sandbox.magic ?? { lateMs: 8_000, timeoutMs: 4_000 }, ...(paymentSeen ? { paymentSeen } : {}) },
      { timeout: "3 seconds" }
    )
  const chainAndMarket =
    sandbox.chainPaid === true
      ? Layer.unwrap(Effect.map(Effect.service(SandboxBlockchain), (c) => market(paymentSeenOn(c.emulator)))).pipe(
          Layer.provideMerge(chain)
        )
      : Layer.mergeAll(chain, market())
  const settings = HttpConfig.layerTest({
    adminToken: Redacted.make(ADMIN_TOKEN),
    dataDir,
    // No Telegram widget in tests: the sandbox sign-in link is the way in, and no request leaves the machine.
    botUsername: null,
    ...http
  })
  // The wallet page's road, as the server's start entry gives it: the sandbox wallets funded by the faucet,
  // the posts limited with the direct surface's rate limit.
  const web = WebUi.pipe(
    Layer.provide(WalletCheckoutLive),
    Layer.provide([SandboxFaucet.layerLocal, DirectHttpConfig.layerTest(direct)])
  )
  const app = httpApp({ routes: web, known: WEB_ROUTES }).pipe(
    Layer.provide(HttpServices),
    Layer.provide([GiftCatalog.layerSandbox, settings, DatabasePing.layer])
  )
  const served = serveLean(app, { logRequests: false }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
  )
  // An idle worker looks for orders every 1.5 s: quick, yet a page shows an order queued before it completes.
  const outside = { sandbox: true, dataDir, giftSenders: ["user", "girl"], telegramAccounts: Option.none() }
  const messaging = Layer.mergeAll(
    giftSenderLayer(outside),
    // Sandbox push policy: the server's own push receiver (`/v2/sandbox`) is delivered to like a push service.
    notifierLayer({
      ...outside,
      vapid: Option.none(),
      vapidSubject: "mailto:operator@localhost",
      botToken: Option.none(),
      telegramApiUrl: "http://127.0.0.1:9"
    }).pipe(Layer.provide(Layer.succeed(PushPolicy, pushPolicyOf(DEFAULT_PUSH_HOSTS, true, "http://127.0.0.1"))))
  )
  // The hot wallet is funded from the emulator's faucet, as in sandbox mode.
  const jobs = WorkerJobsLive.pipe(
    Layer.provide(Layer.mergeAll(messaging, SandboxFaucet.layerLocal)),
    Layer.provide(
      WorkerConfig.layerTest({ dataDir, publicUrl: "http://127.0.0.1", pollInterval: Duration.millis(1500), ...worker })
    )
  )
  return Layer.effect(WebWorld)(
    Effect.gen(function* () {
      const server = yield* HttpServer.HttpServer
      const address = server.address
      if (address._tag === "UnixPathAddress") return yield* Effect.die("not a TCP server")
      const market = (yield* FragmentSandbox).control
      // The chain loses the payments the simulator's test recipient says (`sandbox_lost_payment`).
      ;(yield* SandboxBlockchain).dropPayments(market.dropsPayment)
      const [database] = yield* (yield* SqlClient)<{ readonly name: string }>`SELECT current_database() AS name`.pipe(
        Effect.orDie
      )
      return WebWorld.of({
        url: `http://127.0.0.1:${address.port}`,
        market,
        databaseUrl: databaseUrl(database!.name),
        dataDir
      })
    })
  ).pipe(
    Layer.provide(Layer.mergeAll(served, jobs)),
    Layer.provideMerge(chainAndMarket),
    Layer.provide(IsolatedPostgres.layerStore),
    // The worker's progress lines would drown the test output; warnings and errors still show.
    Layer.provide(Layer.succeed(References.MinimumLogLevel)("Warn"))
  ) as Layer.Layer<WebWorld, unknown>
}
