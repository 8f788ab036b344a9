import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer, Logger, References } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { createServer } from "node:http"
import { MarketplaceError } from "@resale/core/ports"
import { mapErrors } from "../src/handlers/ErrorMapping.ts"
import { serveLean } from "../src/server/LeanServe.ts"
import { newRequestId, RequestId } from "@resale/webkit/RequestId.ts"
import { fastApiFallback } from "../src/validation/FastApiFallback.ts"
import { call } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe("new request ids", () => {
  it("are version 4 UUIDs, all different, every random digit taking many values", () => {
    // 10,000 ids: many times the 256 that one draw of random bytes makes.
    const ids = Array.from({ length: 10_000 }, newRequestId)
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    assert.strictEqual(new Set(ids).size, ids.length)
    for (let at = 0; at < 36; at++) {
      if ([8, 13, 14, 18, 23].includes(at)) continue // dashes, the version digit
      const seen = new Set(ids.map((id) => id[at]))
      assert.isAtLeast(seen.size, at === 19 ? 4 : 16, `digit ${at}`)
    }
  })
})

layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })("request ids on the real app", (it) => {
  it.effect("a safe X-Request-Id is echoed on every kind of answer; an unsafe or missing one is replaced", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const given = { "x-request-id": "client-42.retry:1_a" }
      for (const path of ["/v2/api/pricing", "/v2/api/balance", "/v2/no-such-page", "/healthz", "/v2/openapi.json"]) {
        const answer = yield* call(url, path, { headers: given })
        assert.strictEqual(answer.headers["x-request-id"], "client-42.retry:1_a", path)
      }
      const unsafe = yield* call(url, "/v2/api/pricing", { headers: { "x-request-id": "bad id\u00e9<script>" } })
      assert.match(String(unsafe.headers["x-request-id"]), UUID)
      const long = yield* call(url, "/healthz", { headers: { "x-request-id": "a".repeat(129) } })
      assert.match(String(long.headers["x-request-id"]), UUID)
      const a = (yield* call(url, "/healthz")).headers["x-request-id"]
      const b = (yield* call(url, "/healthz")).headers["x-request-id"]
      assert.match(String(a), UUID)
      assert.notStrictEqual(a, b)
    })
  )
})

/** Log lines with the annotations they carried. */
const lines: Array<{ readonly message: unknown; readonly annotations: Record<string, unknown> }> = []
const capture = Logger.make((options) => {
  lines.push({ message: options.message, annotations: { ...options.fiber.getRef(References.CurrentLogAnnotations) } })
})

const Routes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    yield* router.add("GET", "/logs", Effect.as(Effect.logInfo("inside the handler"), HttpServerResponse.text("ok")))
    yield* router.add("GET", "/boom", Effect.die(new Error("a bug")))
  })
)

const MiniServer = serveLean(Layer.mergeAll(Routes, fastApiFallback([])), { logRequests: true }).pipe(
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
  Layer.provide(Logger.layer([capture]))
)

layer(MiniServer, { excludeTestServices: true })("request ids in logs and 5xx bodies", (it) => {
  const base = Effect.map(HttpServer.HttpServer, (server) =>
    server.address._tag === "UnixPathAddress" ? "" : `http://127.0.0.1:${server.address.port}`
  )

  it.effect("every log line of the request, the request line included, carries request_id", () =>
    Effect.gen(function* () {
      const url = yield* base
      yield* call(url, "/logs", { headers: { "x-request-id": "trace-me" } })
      const mine = lines.filter((line) => line.annotations["request_id"] === "trace-me")
      assert.isTrue(mine.some((line) => JSON.stringify(line.message).includes("inside the handler")))
      assert.isAtLeast(mine.length, 2, JSON.stringify(lines))
    })
  )

  it.effect("a defect answers 500 with the request id in the body, the header and the log", () =>
    Effect.gen(function* () {
      const url = yield* base
      const answer = yield* call(url, "/boom", { headers: { "x-request-id": "bug-report-1" } })
      assert.strictEqual(answer.status, 500)
      assert.deepInclude(answer.json, { code: "internal_error", request_id: "bug-report-1" })
      assert.strictEqual(answer.headers["x-request-id"], "bug-report-1")
      assert.isTrue(
        lines.some(
          (line) =>
            line.annotations["request_id"] === "bug-report-1" &&
            JSON.stringify(line.message).includes("unexpected defect")
        )
      )
    })
  )
})

describe("5xx error bodies", () => {
  layer(Layer.empty)((it) => {
    it.effect("a dependency failure (503) names the request", () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(
          mapErrors(Effect.fail(new MarketplaceError({ reason: "Unavailable", message: "x" })))
        )
        assert.deepInclude(error, { code: "marketplace_unavailable", request_id: "req-503" })
      }).pipe(Effect.provideService(RequestId, "req-503"))
    )
  })
})
