import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tracingLayer } from "../src/Tracing.ts"

/** A loopback OTLP/HTTP collector: what was posted to `/v1/traces`. */
const collector = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ readonly url: string; readonly bodies: Array<string>; readonly close: () => void }>((resolve) => {
        const bodies: Array<string> = []
        const server = createServer((request, response) => {
          let body = ""
          request.on("data", (chunk) => (body += chunk))
          request.on("end", () => {
            if (request.method === "POST" && request.url === "/v1/traces") bodies.push(body)
            response.writeHead(200, { "content-type": "application/json" }).end("{}")
          })
        })
        server.listen(0, "127.0.0.1", () =>
          resolve({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            bodies,
            close: () => server.close()
          })
        )
      })
  ),
  (collected) => Effect.sync(collected.close)
)

describe("trace export", () => {
  it.live("with a traces URL, spans reach the collector (flushed at shutdown) under the service name", () =>
    Effect.gen(function* () {
      const { bodies, url } = yield* collector
      const traces = Option.some({ url: `${url}/v1/traces`, serviceName: "resale-worker", headers: {} })
      yield* Effect.void.pipe(Effect.withSpan("Orders.fulfil"), Effect.provide(tracingLayer(traces)))
      const sent = bodies.join("\n")
      assert.include(sent, "Orders.fulfil")
      assert.include(sent, "resale-worker")
    })
  )

  it.live("without an endpoint nothing is exported and spans still run", () =>
    Effect.gen(function* () {
      const value = yield* Effect.succeed(42).pipe(
        Effect.withSpan("quiet"),
        Effect.provide(tracingLayer(Option.none()))
      )
      assert.strictEqual(value, 42)
    })
  )
})
