/**
 * Everything `npm start` runs in one process, composed statically for the configured mode:
 * - storage: `DATABASE_URL` or the embedded PostgreSQL under `DATA_DIR` (migrated at start);
 * - the world (`@resale/world`): in sandbox mode the sandbox world of DATA_DIR (one TON emulator and one
 *   Fragment simulator, shared with `npm run worker` and the CLI); in production toncenter and Fragment;
 * - the routes: /v2 (HttpApi + pages), the web UI, the direct purchase surface, `/healthz` and, in
 *   sandbox mode, the faucet; FastAPI's 404/405 for everything else;
 * - the worker's jobs (given by `main.ts`, the only file of this package that knows the worker) unless
 *   turned off, on the same storage and world.
 * Storage and world are built once, before the server's routes, and given to the routes, the worker
 * and the database watch alike, so every consumer shares the same instance; the server itself and its
 * request fibers get only the platform, the configuration and the hashes (`serveLean`).
 */
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import { databaseWatch } from "@resale/observability/DatabaseWatch.ts"
import { shutdownBegun } from "@resale/observability/Lifecycle.ts"
import { World } from "@resale/world"
import { Effect, Layer, Redacted } from "effect"
import { DirectRouteHandlers, DirectServices, directKnownRoutes } from "../direct/DirectRoutes.ts"
import { DirectHttpConfig } from "../direct/DirectConfig.ts"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { SandboxFaucetRoute, sandboxKnownRoutes } from "../sandbox/SandboxFaucet.ts"
import { WEB_ROUTES, WebUi } from "@resale/web/WebUi.ts"
import { HttpConfig, type HttpSettings } from "@resale/webkit/HttpConfig.ts"
import { DatabasePing, HttpServices, httpApp } from "./HttpApp.ts"
import { fastPathServer } from "./FastPaths.ts"
import { serveLean } from "./LeanServe.ts"
import { opsPaths } from "./MetricsAccess.ts"
import { OpsRoutes } from "./OpsRoutes.ts"
import { storageLayer } from "./Storage.ts"
import { WalletCheckoutLive } from "./WalletCheckoutLive.ts"

export interface ServerOptions<WE, WR> {
  readonly settings: HttpSettings
  /** The in-process worker's jobs (built by `main.ts`); `Layer.empty` when `WORKER=false`. */
  readonly worker: Layer.Layer<never, WE, WR>
  readonly inProcessWorker: boolean
}

/** The direct purchase surface over the chain and marketplace in context (its settings from the environment). */
const DirectMounted = DirectRouteHandlers.pipe(Layer.provide(DirectServices), Layer.provide(DirectHttpConfig.layer))

const banner = (settings: HttpSettings, worker: boolean) =>
  Effect.suspend(() => {
    const lines = [
      `resale listening on ${settings.publicUrl} (port ${settings.port})${settings.sandbox ? " - SANDBOX MODE, no real money moves" : ""}`,
      settings.adminTokenGenerated
        ? `admin token (generated; set ADMIN_TOKEN to keep one): ${Redacted.value(settings.adminToken)}`
        : "admin token: from ADMIN_TOKEN",
      `operator panel: ${settings.publicUrl}/v2/admin/login`,
      `API reference: ${settings.publicUrl}/v2/api-docs`,
      worker
        ? "worker: running in this process (WORKER=false to run it apart)"
        : "worker: not in this process (WORKER=false)"
    ]
    if (settings.sandbox) {
      lines.push(`sandbox sign-in: ${settings.publicUrl}/v2/auth/sandbox?user=demo`)
      lines.push(
        `sandbox faucet: POST ${settings.publicUrl}/v2/api/admin/sandbox/fund (or: resale sandbox fund ADDRESS TON)`
      )
    }
    // One log line each: plain lines on a terminal, JSON objects in production.
    return Effect.forEach(lines, (line) => Effect.logInfo(line), { discard: true })
  })

/**
 * The HTTP server on `settings.port` for `app`, which gets the use cases of `HttpServices` over
 * `shared`; the server's request fibers carry none of them (`serveLean`).
 */
const serve = <E, R, GE, GR, SO, SE, SR>(
  settings: HttpSettings,
  app: Layer.Layer<never, E, R>,
  gifts: Layer.Layer<GiftCatalog, GE, GR>,
  shared: Layer.Layer<SO, SE, SR>
) =>
  serveLean(app.pipe(Layer.provide(HttpServices), Layer.provide([gifts, DatabasePing.layer]), Layer.provide(shared)), {
    logRequests: settings.logRequests
  }).pipe(
    // Node's server with the fast paths, where the most polled answers skip the request fiber.
    Layer.provide(fastPathServer({ port: settings.port, host: settings.host })),
    // `shared` built first, in the program's layer map, where the routes (built in a fork of it) find
    // it: one instance for the routes, the worker and the watch, and nothing in the request fibers.
    Layer.provide(Layer.effectDiscard(Effect.void).pipe(Layer.provide(shared)))
  )

/**
 * The whole process for `options`: the routes of the mode (the faucet in sandbox mode), the worker,
 * over one storage and one outside world (`World.layer`); the banner is logged once the server listens.
 * The database is watched (lost / back lines) and `shutdown begun` is the first line once a stop is asked for.
 */
export const serverLayer = <WE, WR>(options: ServerOptions<WE, WR>) => {
  const { settings } = options
  // `/livez`, `/readyz`, `/metrics` (when served); the worker's loops count for readiness when it runs here.
  const ops = OpsRoutes({ workerInProcess: options.inProcessWorker })
  const opsKnownRoutes = opsPaths(settings).map((path) => ({ method: "GET", path }))
  // The web UI's wallet page pays through the wallet road (core's WalletCheckout) on the shared world,
  // its posts limited with the direct surface's settings.
  const web = WebUi.pipe(Layer.provide(WalletCheckoutLive.pipe(Layer.provide(DirectHttpConfig.layer))))
  const routes = settings.sandbox
    ? Layer.mergeAll(web, DirectMounted, SandboxFaucetRoute, ops)
    : Layer.mergeAll(web, DirectMounted, ops)
  const known = settings.sandbox
    ? [...WEB_ROUTES, ...directKnownRoutes, ...sandboxKnownRoutes, ...opsKnownRoutes]
    : [...WEB_ROUTES, ...directKnownRoutes, ...opsKnownRoutes]
  // What the routes, the worker and the database watch share: one storage, one outside world.
  const shared = World.layer.pipe(Layer.provideMerge(storageLayer(settings)))
  // ONE gift sender (mtcute when configured) for the catalogue and the worker: one Telegram client per account.
  const server = Layer.mergeAll(
    serve(settings, httpApp({ routes, known }), GiftCatalog.layerWith({ publicUrl: settings.publicUrl }), shared),
    options.worker.pipe(Layer.provide(shared)),
    databaseWatch().pipe(Layer.provide(shared))
  ).pipe(
    Layer.provide(Layer.succeed(HttpConfig)(settings)),
    // Hashes (API keys, session ids) on node:crypto, synchronously (core's `sha256Hasher`).
    Layer.provide(NodeCrypto.layerDigest),
    Layer.tap(() => banner(settings, options.inProcessWorker))
  )
  return shutdownBegun("server").pipe(Layer.provide(server))
}
