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
/** Route modules built beside this one (direct purchase surface, web UI), mounted when present. */
const OPTIONAL_ROUTES = [
  { file: "./direct/DirectRoutes.ts", layer: "DirectRoutes", known: "directKnownRoutes" },
  { file: "./web/WebUi.ts", layer: "WebUi", known: "WEB_ROUTES" }
] as const

const optionalRoutes = async (): Promise<{ routes: Layer.Layer<never, unknown, unknown>; known: Array<KnownRoute> }> => {
  let routes: Layer.Layer<never, unknown, unknown> = Layer.empty
  const known: Array<KnownRoute> = []
  for (const entry of OPTIONAL_ROUTES) {
    const url = new URL(entry.file, import.meta.url)
    if (!existsSync(url)) continue
    try {
      const module = (await import(url.href)) as Record<string, unknown>
      routes = Layer.merge(routes, module[entry.layer] as Layer.Layer<never, unknown, unknown>)
      known.push(...((module[entry.known] as ReadonlyArray<KnownRoute> | undefined) ?? []))
    } catch (error) {
      console.error(`not mounting ${entry.file}: ${String(error)}`)
    }
  }
  return { routes, known }
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
  const extra = yield* Effect.promise(optionalRoutes)
  const marketplace = settings.sandbox ? FragmentSandbox.layer() : FragmentMarketplace.layer
  const storage = storageLayer(settings)
  const app = httpApp(extra).pipe(
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
