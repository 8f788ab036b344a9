import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { FragmentSandbox } from "@resale/marketplace"
import { FragmentMarketplace } from "@resale/marketplace"
import { Effect, Layer, Redacted } from "effect"
import { HttpRouter } from "effect/http"
import { existsSync } from "node:fs"
import { createServer } from "node:http"
import { GiftCatalog } from "./gifts/GiftCatalog.ts"
import { HttpConfig, type HttpSettings } from "./server/HttpConfig.ts"
import { DatabasePing, HttpServices, httpApp } from "./server/HttpApp.ts"
import { storageLayer } from "./server/Storage.ts"
import type { KnownRoute } from "./validation/FastApiFallback.ts"

/**
 * Composition root of `npm start`: configuration read once, storage (PostgreSQL or embedded),
 * sandbox marketplace unless production settings are given, every route, then the banner.
 */
const DIRECT_ROUTES = new URL("./direct/DirectRoutes.ts", import.meta.url)

/** The direct purchase surface, mounted when its module is present. */
const directRoutes = async (): Promise<{ routes: Layer.Layer<never, unknown, unknown>; known: Array<KnownRoute> }> => {
  if (!existsSync(DIRECT_ROUTES)) return { routes: Layer.empty, known: [] }
  const module = (await import(DIRECT_ROUTES.href)) as { DirectRoutes: Layer.Layer<never, unknown, unknown> }
  const paths = ["/coin/buy", "/coin/transfer", "/stars/buy", "/premium/buy"]
  return { routes: module.DirectRoutes, known: paths.flatMap((path) => [{ method: "GET", path }, { method: "POST", path }]) }
}

const banner = (settings: HttpSettings) =>
  Effect.sync(() => {
    const lines = [
      `resale listening on ${settings.publicUrl} (port ${settings.port})${settings.sandbox ? " - SANDBOX MODE, no real money moves" : ""}`,
      settings.adminTokenGenerated
        ? `admin token (generated; set ADMIN_TOKEN to keep one): ${Redacted.value(settings.adminToken)}`
        : "admin token: from ADMIN_TOKEN",
      `operator panel: ${settings.publicUrl}/v2/admin/login`,
      `API reference: ${settings.publicUrl}/v2/api-docs`
    ]
    if (settings.sandbox) lines.push(`sandbox sign-in: ${settings.publicUrl}/v2/auth/sandbox?user=demo`)
    console.log(lines.join("\n"))
  })

const program = Effect.gen(function*() {
  const settings = yield* HttpConfig
  const direct = yield* Effect.promise(directRoutes)
  const marketplace = settings.sandbox ? FragmentSandbox.layer() : FragmentMarketplace.layer
  const storage = storageLayer(settings)
  const app = httpApp(direct).pipe(
    Layer.provide(HttpServices),
    Layer.provide([GiftCatalog.layerSandbox, marketplace, DatabasePing.layer]),
    Layer.provideMerge(storage),
    Layer.provide(Layer.succeed(HttpConfig)(settings))
  )
  const server = HttpRouter.serve(app, { disableLogger: !settings.logRequests }).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port: settings.port })),
    Layer.tap(() => banner(settings))
  )
  return yield* Layer.launch(server as unknown as Layer.Layer<never, unknown, never>)
})

program.pipe(Effect.provide(HttpConfig.layer), NodeRuntime.runMain)
