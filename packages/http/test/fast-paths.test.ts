import { assert, layer } from "@effect/vitest"
import { FragmentSandbox } from "@resale/marketplace"
import { makeJsonLogger } from "@resale/observability/Logging.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Context, Effect, Layer, Logger, Tracer } from "effect"
import { HttpServer } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { IncomingMessage, ServerResponse } from "node:http"
import { connect, Socket } from "node:net"
import { request } from "undici"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { FastPaths, fastPathServer } from "../src/server/FastPaths.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { DatabasePing, HttpServices, httpApp } from "../src/server/HttpApp.ts"
import { serveLean } from "../src/server/LeanServe.ts"
import { WEB_ROUTES, WebUi } from "@resale/web/WebUi.ts"
import { adminSignIn, call, signIn } from "./Client.ts"

/**
 * `npm start`'s server answers `GET /v2/api/pricing` on a fast path (no request fiber) while the
 * price list is fresh. What it answers must be what the whole pipeline answers: the same status,
 * body and headers in the same order, the same request log line (fields, their order, redaction),
 * request id and metrics. The first request after start goes through the pipeline (nothing cached
 * yet), the next ones through the fast path, so each test compares the two
 * (`fast-path-parity.test.ts` compares every kind of answer field by field).
 */
const lines: Array<Record<string, unknown>> = []
const capture = makeJsonLogger((line) => lines.push(JSON.parse(line)))

class Base extends Context.Service<Base, { readonly url: string }>()("test/fast-paths/Base") {}

const Served = serveLean(
  httpApp({ routes: WebUi, known: WEB_ROUTES }).pipe(
    Layer.provide(HttpServices),
    Layer.provide([
      GiftCatalog.layerSandbox,
      FragmentSandbox.layer(),
      HttpConfig.layerTest({ publicUrl: "https://resale.example", logRequests: true }),
      DatabasePing.layer
    ]),
    Layer.provide(IsolatedPostgres.layerStore)
  ),
  { logRequests: true }
).pipe(
  Layer.provideMerge(fastPathServer({ port: 0, host: "127.0.0.1" })),
  Layer.provide(HttpConfig.layerTest({ publicUrl: "https://resale.example" }))
)

const TestLayer = Layer.effect(Base)(
  Effect.gen(function* () {
    const server = yield* HttpServer.HttpServer
    if (server.address._tag === "UnixPathAddress") return yield* Effect.die("not a TCP server")
    return Base.of({ url: `http://127.0.0.1:${server.address.port}` })
  })
).pipe(Layer.provideMerge(Served), Layer.provide(Logger.layer([capture]))) as Layer.Layer<Base | FastPaths, unknown>

// The same server with a tracing backend installed (as `OTEL_EXPORTER_OTLP_ENDPOINT` installs one):
// the fast paths make no spans only when no backend would see them.
const spans: Array<string> = []
const recording = Tracer.make({
  span: (options) => {
    spans.push(options.name)
    return Tracer.nativeTracer.span(options)
  }
})
const TracedLayer = TestLayer.pipe(Layer.provide(Layer.succeed(Tracer.Tracer, recording)))

/** An answer with its header names in wire order. */
const get = (url: string, path: string, headers: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const answer = await request(`${url}${path}`, { headers })
    const raw = answer.headers
    return { status: answer.statusCode, names: Object.keys(raw), headers: raw, text: await answer.body.text() }
  })

/** The request log line of the request with this id (logged at the end of its event-loop turn). */
const lineOf = (id: string, message = "GET /v2/api/pricing 200") =>
  Effect.gen(function* () {
    for (let i = 0; i < 50; i++) {
      const found = lines.find((line) => line["message"] === message && line["request_id"] === id)
      if (found !== undefined) return found
      yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
    }
    return assert.fail(`no request line for ${id}`)
  })

const pricingRequests = Effect.map(PrometheusMetrics.format(), (text) => {
  const line = text
    .split("\n")
    .find(
      (l) => l.startsWith("http_requests_total{") && l.includes(`route="/v2/api/pricing"`) && l.includes(`status="200"`)
    )
  return line === undefined ? 0 : Number(line.split(" ").at(-1))
})

const withoutVarying = (line: Record<string, unknown>) => {
  const { time: _time, request_id: _id, duration_ms: _duration, ...rest } = line
  return rest
}

layer(TestLayer, { timeout: "60 seconds", excludeTestServices: true })("fast paths", (it) => {
  it.effect("answers pricing with the pipeline's status, body, headers, log line and metrics", () =>
    Effect.gen(function* () {
      const { url } = yield* Base
      const fast = yield* FastPaths
      const countedBefore = yield* pricingRequests
      const viaPipeline = yield* get(url, "/v2/api/pricing", { "x-request-id": "first-one" })
      assert.strictEqual(fast.answered(), 0, "the first request reads the prices through the pipeline")
      const viaFast = yield* get(url, "/v2/api/pricing?lang=ru", { "x-request-id": "second-one" })
      assert.strictEqual(fast.answered(), 1, "the next one is answered on the fast path")

      assert.strictEqual(viaFast.status, viaPipeline.status)
      assert.strictEqual(viaFast.text, viaPipeline.text)
      assert.deepStrictEqual(viaFast.names, viaPipeline.names)
      for (const name of viaPipeline.names.filter((n) => n !== "date" && n !== "x-request-id")) {
        assert.deepStrictEqual(viaFast.headers[name], viaPipeline.headers[name], name)
      }
      assert.strictEqual(viaFast.headers["cache-control"], "no-store")
      assert.strictEqual(viaFast.headers["strict-transport-security"], "max-age=31536000; includeSubDomains")
      assert.strictEqual(viaFast.headers["x-request-id"], "second-one")

      const pipelineLine = yield* lineOf("first-one")
      const fastLine = yield* lineOf("second-one")
      assert.deepStrictEqual(Object.keys(fastLine), Object.keys(pipelineLine))
      assert.deepStrictEqual(withoutVarying(fastLine), withoutVarying(pipelineLine))
      assert.strictEqual(fastLine["route"], "/v2/api/pricing")
      assert.strictEqual(fastLine["path"], "/v2/api/pricing")
      assert.strictEqual(yield* pricingRequests, countedBefore + 2)
    })
  )

  it.effect(
    "makes request ids as the pipeline does: a safe one echoed, others replaced, secrets scrubbed in the log",
    () =>
      Effect.gen(function* () {
        const { url } = yield* Base
        const fast = yield* FastPaths
        yield* get(url, "/v2/api/pricing")
        const before = fast.answered()
        const unsafe = yield* get(url, "/v2/api/pricing", { "x-request-id": "bad id<script>" })
        assert.match(
          String(unsafe.headers["x-request-id"]),
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
        )
        const key = `rk_${"A".repeat(43)}`
        const keyed = yield* get(url, "/v2/api/pricing", { "x-request-id": key })
        assert.strictEqual(keyed.headers["x-request-id"], key)
        assert.strictEqual(fast.answered(), before + 2)
        const logged = yield* lineOf("<redacted>")
        assert.strictEqual(logged["status"], 200)
        assert.isFalse(
          lines.some((line) => JSON.stringify(line).includes(key)),
          "an API key never reaches the log"
        )
      })
  )

  it.effect("leaves everything else to the pipeline: other methods, bodies, neighbouring paths", () =>
    Effect.gen(function* () {
      const { url } = yield* Base
      const fast = yield* FastPaths
      yield* get(url, "/v2/api/pricing")
      const before = fast.answered()
      assert.strictEqual((yield* call(url, "/v2/api/pricing", { method: "HEAD" })).status, 200)
      assert.strictEqual((yield* call(url, "/v2/api/pricing", { method: "POST" })).status, 405)
      assert.strictEqual((yield* call(url, "/v2/api/pricingx")).status, 404)
      assert.strictEqual((yield* call(url, "/v2/api/pricing", { method: "GET", body: "x" })).status, 200)
      assert.strictEqual(fast.answered(), before)
    })
  )

  it.effect("answers requests read in one turn together, in the order they came", () =>
    Effect.gen(function* () {
      const { url } = yield* Base
      const fast = yield* FastPaths
      yield* get(url, "/v2/api/pricing")
      const before = fast.answered()
      // Five requests in one write (pipelined): read in one turn, answered at its end, in order.
      const ids = ["p-1", "p-2", "p-3", "p-4", "p-5"]
      const text = yield* Effect.promise(
        () =>
          new Promise<string>((resolve, reject) => {
            const socket = connect(Number(new URL(url).port), "127.0.0.1")
            let got = ""
            socket.on("data", (chunk) => {
              got += chunk.toString("latin1")
              if (got.split("HTTP/1.1 ").length - 1 === ids.length && got.endsWith("}")) socket.end(() => resolve(got))
            })
            socket.on("error", reject)
            socket.write(
              ids.map((id) => `GET /v2/api/pricing HTTP/1.1\r\nhost: x\r\nx-request-id: ${id}\r\n\r\n`).join("")
            )
          })
      )
      assert.deepStrictEqual(
        [...text.matchAll(/x-request-id: (\S+)/g)].map((m) => m[1]),
        ids
      )
      assert.deepStrictEqual(
        [...text.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => m[1]),
        ids.map(() => "200")
      )
      assert.strictEqual(fast.answered(), before + ids.length)
      for (const id of ids) assert.strictEqual((yield* lineOf(id))["status"], 200)
    })
  )

  it.effect("writes nothing to a client gone before the end of the turn, and logs its request as 499", () =>
    Effect.gen(function* () {
      const { url } = yield* Base
      const fast = yield* FastPaths
      yield* get(url, "/v2/api/pricing")
      const before = fast.answered()
      // A request taken on the fast path whose connection is then destroyed in the same turn.
      const request = new IncomingMessage(new Socket())
      request.method = "GET"
      request.url = "/v2/api/pricing"
      request.headers = { "x-request-id": "gone-1" }
      const response = new ServerResponse(request)
      fast.handle(request, response, () => assert.fail("handed on instead of taken on the fast path"))
      response.destroy()
      const line = yield* lineOf("gone-1", "GET /v2/api/pricing 499")
      assert.strictEqual(line["status"], 499)
      assert.isFalse(response.headersSent)
      assert.strictEqual(fast.answered(), before)
    })
  )

  it.effect("an operator's price change is in the very next answer", () =>
    Effect.gen(function* () {
      const { url } = yield* Base
      yield* get(url, "/v2/api/pricing")
      const op = yield* adminSignIn(url)
      const prices = {
        star_price_uzs: "251",
        premium_3_month_uzs: "180000",
        premium_6_month_uzs: "240000",
        premium_12_month_uzs: "420000"
      }
      assert.strictEqual((yield* call(url, "/v2/admin/pricing", { form: prices, cookie: op })).status, 200)
      const after = JSON.parse((yield* get(url, "/v2/api/pricing")).text) as Record<string, unknown>
      assert.strictEqual(after["star_price_uzs"], 251)
    })
  )

  it.effect("answers an API key's balance as the HttpApi route does, and leaves every refusal to it", () =>
    Effect.gen(function* () {
      const { url } = yield* Base
      const fast = yield* FastPaths
      const cookie = yield* signIn(url, 5150, "fast_path_user")
      const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key as string
      const before = fast.answered()
      // A query makes the fast route decline: the HttpApi route answers that one.
      const viaPipeline = yield* get(url, "/v2/api/balance?via=pipeline", {
        "x-api-key": key,
        "x-request-id": "balance-1"
      })
      assert.strictEqual(fast.answered(), before)
      const viaFast = yield* get(url, "/v2/api/balance", { "x-api-key": key, "x-request-id": "balance-2" })
      assert.strictEqual(fast.answered(), before + 1)
      assert.strictEqual(viaFast.status, 200)
      assert.strictEqual(viaFast.text, viaPipeline.text)
      assert.deepStrictEqual(JSON.parse(viaFast.text), { balance_uzs: 0, sandbox: true })
      assert.deepStrictEqual(viaFast.names, viaPipeline.names)
      for (const name of viaPipeline.names.filter((n) => n !== "date" && n !== "x-request-id")) {
        assert.deepStrictEqual(viaFast.headers[name], viaPipeline.headers[name], name)
      }
      const pipelineLine = yield* lineOf("balance-1", "GET /v2/api/balance 200")
      const fastLine = yield* lineOf("balance-2", "GET /v2/api/balance 200")
      assert.deepStrictEqual(Object.keys(fastLine), Object.keys(pipelineLine))
      assert.deepStrictEqual(withoutVarying(fastLine), withoutVarying(pipelineLine))
      assert.strictEqual(fastLine["route"], "/v2/api/balance")
      assert.isString(fastLine["user"])

      // Refusals are the HttpApi route's, unchanged; an unknown key is handed on under the same request id.
      const missing = yield* get(url, "/v2/api/balance")
      assert.strictEqual(missing.status, 401)
      assert.deepStrictEqual(JSON.parse(missing.text), {
        detail: "Missing X-API-Key header",
        code: "api_key_missing",
        request_id: missing.headers["x-request-id"]
      })
      const unknown = yield* get(url, "/v2/api/balance", {
        "x-api-key": `rk_${"B".repeat(43)}`,
        "x-request-id": "unknown-key"
      })
      assert.strictEqual(unknown.status, 401)
      assert.deepStrictEqual(JSON.parse(unknown.text), {
        detail: "Invalid API key",
        code: "api_key_invalid",
        request_id: "unknown-key"
      })
      assert.strictEqual(unknown.headers["x-request-id"], "unknown-key")
      assert.strictEqual(fast.answered(), before + 1)

      // A rotated key is refused at once: nothing is cached.
      yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })
      assert.strictEqual((yield* get(url, "/v2/api/balance", { "x-api-key": key })).status, 401)
    })
  )
})

layer(TracedLayer, { timeout: "60 seconds", excludeTestServices: true })("fast paths with a tracing backend", (it) => {
  it.effect("exports the spans of what it answers, as the pipeline does", () =>
    Effect.gen(function* () {
      const { url } = yield* Base
      const fast = yield* FastPaths
      const cookie = yield* signIn(url, 5151, "traced_user")
      const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key as string
      const before = fast.answered()
      spans.length = 0
      assert.strictEqual((yield* get(url, "/v2/api/balance", { "x-api-key": key })).status, 200)
      assert.strictEqual(fast.answered(), before + 1)
      assert.includeMembers(spans, ["Accounts.balanceByApiKey", "Users.balanceByApiKeyHash"])
    })
  )
})
