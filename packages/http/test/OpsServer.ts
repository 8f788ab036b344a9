import { FragmentSandbox } from "@resale/marketplace"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import { connect } from "node:net"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { fastPathServer } from "../src/server/FastPaths.ts"
import { HttpConfig, type HttpSettings } from "@resale/webkit/HttpConfig.ts"
import { DatabasePing, HttpServices, httpApp } from "../src/server/HttpApp.ts"
import { serveLean } from "../src/server/LeanServe.ts"
import { opsPaths } from "../src/server/MetricsAccess.ts"
import { OpsRoutes } from "../src/server/OpsRoutes.ts"
import { TestServer } from "./TestServer.ts"

/**
 * The server as `npm start` serves it (fast paths, lean request fibers, the probes and `/metrics` with
 * the database's gauges) on 127.0.0.1:0, over a fresh PostgreSQL database.
 */
export const opsTestServer = (settings: Partial<HttpSettings> = {}) => {
  const config = HttpConfig.layerTest(settings)
  const probe = { sandbox: true, metricsToken: Option.none(), trustedProxies: [], ...settings }
  const known = opsPaths(probe).map((path) => ({ method: "GET", path }))
  const app = httpApp({ routes: OpsRoutes({ workerInProcess: false }), known }).pipe(
    Layer.provide(HttpServices),
    Layer.provide([GiftCatalog.layerSandbox, FragmentSandbox.layer(), config, DatabasePing.layer]),
    Layer.provide(IsolatedPostgres.layerStore)
  )
  const served = serveLean(app, { logRequests: false }).pipe(
    Layer.provideMerge(fastPathServer({ port: 0, host: "127.0.0.1" })),
    Layer.provide(config)
  )
  return Layer.effect(TestServer)(
    Effect.gen(function* () {
      const server = yield* HttpServer.HttpServer
      if (server.address._tag === "UnixPathAddress") return yield* Effect.die("not a TCP server")
      return TestServer.of({ url: `http://127.0.0.1:${server.address.port}` })
    })
  ).pipe(Layer.provide(served)) as Layer.Layer<TestServer, unknown>
}

/**
 * Writes `head` (a request line and headers, no body) on a new connection and gives the answer's
 * status; 0 when the connection closed without one. Raw, so a declared body can be left unsent.
 */
export const rawStatus = (url: string, head: string): Promise<number> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname)
    let data = ""
    socket.setEncoding("latin1")
    socket.on("data", (chunk) => {
      data += chunk
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data)
      if (status !== null) {
        resolve(Number(status[1]))
        socket.destroy()
      }
    })
    socket.on("error", () => resolve(0))
    socket.on("close", () => resolve(0))
    socket.write(head)
  })
