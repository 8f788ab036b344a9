import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { FragmentSandbox } from "@resale/marketplace"
import type { Marketplace } from "@resale/core/ports/Marketplace.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Context, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { createServer } from "node:http"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { HttpConfig, type HttpSettings } from "@resale/webkit/HttpConfig.ts"
import { DatabasePing, HttpServices, httpApp } from "../src/server/HttpApp.ts"
import { serveLean } from "../src/server/LeanServe.ts"
import { WEB_ROUTES, WebUi } from "@resale/web/WebUi.ts"

/** The running server under test: its base URL on a random loopback port. */
export class TestServer extends Context.Service<TestServer, { readonly url: string }>()("http/test/TestServer") {}

/**
 * The whole HTTP app served by a real node:http server on 127.0.0.1:0, over the given storage
 * ports layer (real PostgreSQL through the store, or core's memory fakes), listing the given gift catalogue
 * (the sandbox's by default), buying on the given Fragment (a fresh simulator by default).
 */
export const makeTestServer = <E, R>(
  ports: Layer.Layer<R, E>,
  settings: Partial<HttpSettings> = {},
  ping: Layer.Layer<DatabasePing, E, R> = DatabasePing.layerAlwaysUp as Layer.Layer<DatabasePing, E, R>,
  gifts: Layer.Layer<GiftCatalog> = GiftCatalog.layerSandbox,
  fragment: Layer.Layer<Marketplace | FragmentSandbox> = FragmentSandbox.layer()
) => {
  // With the web UI, as `npm start` serves it: a browser's request (Accept: text/html) gets a page.
  const app = httpApp({ routes: WebUi, known: WEB_ROUTES }).pipe(
    Layer.provide(HttpServices),
    Layer.provide([gifts, fragment, HttpConfig.layerTest(settings), ping]),
    Layer.provide(ports)
  )
  // Served as `npm start` serves it: request fibers carry only the platform's services.
  const served = serveLean(app, { logRequests: process.env["HTTP_TEST_LOG"] !== undefined }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
  )
  return Layer.effect(TestServer)(
    Effect.gen(function* () {
      const server = yield* HttpServer.HttpServer
      const address = server.address
      if (address._tag === "UnixPathAddress") return yield* Effect.die("not a TCP server")
      return TestServer.of({ url: `http://127.0.0.1:${address.port}` })
    })
  ).pipe(Layer.provide(served)) as Layer.Layer<TestServer, unknown>
}

/** The server over the real store on a fresh PostgreSQL database (one per test file). */
export const pgTestServer = (settings: Partial<HttpSettings> = {}) =>
  makeTestServer(IsolatedPostgres.layerStore, settings, DatabasePing.layer as never)
