/**
 * Everything `npm start` runs in one process, composed statically for the configured mode:
 * - storage: `DATABASE_URL` or the embedded PostgreSQL under `DATA_DIR` (migrated at start);
 * - the world: in sandbox mode ONE TON emulator (state in `DATA_DIR/ton-sandbox.json`) and ONE Fragment
 *   simulator that delivers once the payment is on that emulator; in production toncenter and Fragment;
 * - the routes: /v2 (HttpApi + pages), the web UI, the direct purchase surface, `/healthz` and, in
 *   sandbox mode, the faucet; FastAPI's 404/405 for everything else;
 * - the worker (`WorkerLive` jobs) unless turned off, on the same storage, chain and marketplace.
 * Each of storage, world and (in production) the gift sender is provided once at the top, so every
 * consumer shares the same instance.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { FragmentMarketplace } from "@resale/marketplace/FragmentMarketplace.ts"
import { TonCenterBlockchain } from "@resale/ton/TonCenterBlockchain.ts"
import { makeWorkerLive, makeWorkerLiveOverGiftSender } from "@resale/worker/WorkerLive.ts"
import { WorkerConfig, type WorkerSettings } from "@resale/worker/WorkerConfig.ts"
import { SandboxWorld } from "@resale/worker/SandboxWorld.ts"
import { GiftSenderLive } from "@resale/worker/gifts/GiftSenderLive.ts"
import { Effect, Layer, Option, Redacted } from "effect"
import { createServer } from "node:http"
import { DirectRouteHandlers, DirectServices, directKnownRoutes } from "../direct/DirectRoutes.ts"
import { DirectHttpConfig } from "../direct/DirectConfig.ts"
import { GiftCatalog } from "../gifts/GiftCatalog.ts"
import { SandboxFaucetRoute, sandboxKnownRoutes } from "../sandbox/SandboxFaucet.ts"
import { WEB_ROUTES, WebUi } from "../web/WebUi.ts"
import { HttpConfig, type HttpSettings } from "./HttpConfig.ts"
import { DatabasePing, HttpServices, httpApp } from "./HttpApp.ts"
import { serveLean } from "./LeanServe.ts"
import { storageLayer } from "./Storage.ts"

export interface ServerOptions {
  readonly settings: HttpSettings
  /** The in-process worker's settings; None when `WORKER=false` (the worker runs as its own process). */
  readonly worker: Option.Option<WorkerSettings>
}

/** The direct purchase surface over the chain and marketplace in context (its settings from the environment). */
const DirectMounted = DirectRouteHandlers.pipe(Layer.provide(DirectServices), Layer.provide(DirectHttpConfig.layer))

const banner = (settings: HttpSettings, worker: boolean) =>
  Effect.sync(() => {
    const lines = [
      `resale listening on ${settings.publicUrl} (port ${settings.port})${settings.sandbox ? " - SANDBOX MODE, no real money moves" : ""}`,
      settings.adminTokenGenerated
        ? `admin token (generated; set ADMIN_TOKEN to keep one): ${Redacted.value(settings.adminToken)}`
        : "admin token: from ADMIN_TOKEN",
      `operator panel: ${settings.publicUrl}/v2/admin/login`,
      `API reference: ${settings.publicUrl}/v2/api-docs`,
      worker ? "worker: running in this process (WORKER=false to run it apart)" : "worker: not in this process (WORKER=false)"
    ]
    if (settings.sandbox) {
      lines.push(`sandbox sign-in: ${settings.publicUrl}/v2/auth/sandbox?user=demo`)
      lines.push(`sandbox faucet: POST ${settings.publicUrl}/v2/api/admin/sandbox/fund (or: resale sandbox fund ADDRESS TON)`)
    }
    console.log(lines.join("\n"))
  })

/** The HTTP server on `settings.port` for `app`, over the use cases of `HttpServices` (request handlers need them too). */
const serve = <E, R, GE, GR>(
  settings: HttpSettings,
  app: Layer.Layer<never, E, R>,
  gifts: Layer.Layer<GiftCatalog, GE, GR>
) =>
  serveLean(app, { logRequests: settings.logRequests }).pipe(
    Layer.provide(HttpServices),
    Layer.provide([gifts, DatabasePing.layer]),
    Layer.provide(NodeHttpServer.layer(createServer, { port: settings.port, host: settings.host }))
  )

const workerLive = (settings: WorkerSettings) => makeWorkerLive(Layer.succeed(WorkerConfig)(settings))

const workerOf = (options: ServerOptions) =>
  Option.match(options.worker, { onNone: (): ReturnType<typeof workerLive> => Layer.empty, onSome: workerLive })

/** Sandbox mode: one emulator and one Fragment simulator for the routes, the faucet and the worker. */
const sandboxServer = (options: ServerOptions) => {
  const { settings } = options
  const routes = Layer.mergeAll(WebUi, DirectMounted, SandboxFaucetRoute)
  const app = httpApp({ routes, known: [...WEB_ROUTES, ...directKnownRoutes, ...sandboxKnownRoutes] })
  return Layer.mergeAll(serve(settings, app, GiftCatalog.layerSandbox), workerOf(options)).pipe(
    Layer.provide(SandboxWorld.layer(settings.dataDir)),
    Layer.provide(storageLayer(settings)),
    Layer.provide(Layer.succeed(HttpConfig)(settings))
  )
}

/** Production: toncenter (`TONCENTER_*`) and Fragment (`FRAGMENT_*`) from the environment. */
const productionServer = (options: ServerOptions) => {
  const { settings } = options
  const routes = Layer.mergeAll(WebUi, DirectMounted)
  const app = httpApp({ routes, known: [...WEB_ROUTES, ...directKnownRoutes] })
  // ONE gift sender (mtcute when configured) for the catalogue and the worker: the catalogue reads the
  // accounts the worker sends from, over the same Telegram clients.
  const workerConfig = Option.match(options.worker, {
    onNone: () => WorkerConfig.layer,
    onSome: (worker) => Layer.succeed(WorkerConfig)(worker)
  })
  const worker = Option.match(options.worker, {
    onNone: (): ReturnType<typeof makeWorkerLiveOverGiftSender<never, never>> => Layer.empty,
    onSome: (worker) => makeWorkerLiveOverGiftSender(Layer.succeed(WorkerConfig)(worker))
  })
  return Layer.mergeAll(serve(settings, app, GiftCatalog.layer), worker).pipe(
    Layer.provide(GiftSenderLive.pipe(Layer.provide(workerConfig))),
    Layer.provide(Layer.mergeAll(TonCenterBlockchain.layer, FragmentMarketplace.layer)),
    Layer.provide(storageLayer(settings)),
    Layer.provide(Layer.succeed(HttpConfig)(settings))
  )
}

/** The whole process for `options`; the banner is printed once the server listens. */
export const serverLayer = (options: ServerOptions) => {
  const server = options.settings.sandbox ? sandboxServer(options) : productionServer(options)
  return server.pipe(Layer.tap(() => banner(options.settings, Option.isSome(options.worker))))
}





