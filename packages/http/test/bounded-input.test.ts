import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { connect } from "node:net"
import { Readable } from "node:stream"
import { request } from "undici"
import { JSON_BODY_LIMIT } from "../src/server/BodyLimit.ts"
import { adminSignIn, call, signIn, TEST_ADMIN_TOKEN } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

const MB = 1024 * 1024

/**
 * Sends the head of a request declaring `declared` bytes, then pumps body bytes until the server
 * closes the connection. Returns the raw answer and how much of the body the client got to send.
 */
const declaredUpload = (base: string, path: string, declared: number) =>
  Effect.promise(
    () =>
      new Promise<{ readonly answer: string; readonly sent: number }>((resolve) => {
        const { hostname, port } = new URL(base)
        const socket = connect(Number(port), hostname)
        const chunk = Buffer.alloc(MB, "[")
        let answer = ""
        let sent = 0
        const pump = () => {
          while (sent < declared && !socket.destroyed) {
            sent += chunk.length
            if (!socket.write(chunk)) return void socket.once("drain", pump)
          }
        }
        socket.on("connect", () => {
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`
          )
          pump()
        })
        socket.on("data", (data) => (answer += data.toString("latin1")))
        // The server closes the connection after its answer; writes still under way then fail.
        socket.on("error", () => {})
        socket.on("close", () => resolve({ answer, sent }))
      })
  )

/** A body sent chunked (no Content-Length), `total` bytes of `fill`. */
const chunked = (base: string, path: string, total: number, headers: Record<string, string>) =>
  Effect.promise(async () => {
    async function* body() {
      for (let sent = 0; sent < total; sent += 1024) yield Buffer.alloc(1024, "a")
    }
    const response = await request(`${base}${path}`, { method: "POST", headers, body: Readable.from(body()) })
    const text = await response.body.text()
    return { status: response.statusCode, text }
  })

layer(pgTestServer(), { timeout: "120 seconds", excludeTestServices: true })("bounded input", (it) => {
  it.effect("a 200 MB body to the bot webhook is refused with 413 before it is read; the server stays healthy", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const before = process.memoryUsage().heapUsed
      const { answer, sent } = yield* declaredUpload(url, "/v2/bot/webhook/x", 200 * MB)
      assert.match(answer, /^HTTP\/1\.1 413 /)
      assert.include(answer, `"code":"payload_too_large"`)
      assert.match(answer, /connection: close/i)
      // The server hung up long before the client could push the body through.
      assert.isBelow(sent, 200 * MB)
      assert.isBelow(process.memoryUsage().heapUsed - before, 64 * MB)
      const health = yield* call(url, "/healthz")
      assert.strictEqual(health.status, 200)
    })
  )

  it.effect(
    "the declared length is checked per route: 64 KB for JSON and forms, the direct surface answers in its dialect",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const big = "x".repeat(JSON_BODY_LIMIT + 1)
        const form = yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "1000", pad: big } })
        assert.strictEqual(form.status, 413)
        assert.strictEqual(form.json.code, "payload_too_large")
        assert.isString(form.json.detail)
        const direct = yield* call(url, "/stars/buy", { json: { username: big } })
        assert.strictEqual(direct.status, 413)
        assert.deepInclude(direct.json, { ok: false, code: "PAYLOAD_TOO_LARGE" })
        assert.isString(direct.json.message)
        // Just under the limit reaches validation as before.
        const fits = yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "x", pad: "y".repeat(1000) } })
        assert.strictEqual(fits.status, 422)
      })
  )

  it.effect("a chunked body is cut at the limit wherever it is read: 413, never a 5xx", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const json = yield* chunked(url, "/v2/api/stars/buy", 200 * 1024, { "content-type": "application/json" })
      assert.strictEqual(json.status, 413, json.text)
      const form = yield* chunked(url, "/v2/balance/top-up", 200 * 1024, {
        "content-type": "application/x-www-form-urlencoded"
      })
      assert.strictEqual(form.status, 413, form.text)
      const webhook = yield* chunked(url, "/v2/bot/webhook/x", 200 * 1024, { "content-type": "application/json" })
      assert.strictEqual(webhook.status, 413, webhook.text)
    })
  )

  it.effect("deeply nested JSON is a 422, not a stack overflow", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const deep = "[".repeat(32_000) + "]".repeat(32_000)
      const webhook = { "x-telegram-bot-api-secret-token": "test-webhook-header-secret" }
      for (const path of ["/v2/bot/webhook/test-webhook-secret", "/v2/api/stars/buy", "/v2/api/getInfo"]) {
        const answer = yield* call(url, path, {
          body: deep,
          headers: { "content-type": "application/json", ...webhook }
        })
        assert.strictEqual(answer.status, 422, `${path}: ${answer.text}`)
        assert.strictEqual(answer.json.detail[0].type, "json_too_deep")
      }
      const nestedField = `{"username": ${"[".repeat(5000)}${"]".repeat(5000)}}`
      const field = yield* call(url, "/v2/api/getInfo", {
        body: nestedField,
        headers: { "content-type": "application/json" }
      })
      assert.strictEqual(field.status, 422)
    })
  )

  it.effect(
    "text fields and headers are bounded: a long username is a 422 that does not echo it, a huge header a 431",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const long = "a".repeat(10_000)
        const info = yield* call(url, "/v2/api/getInfo", { json: { username: long } })
        assert.strictEqual(info.status, 422)
        assert.deepStrictEqual(info.json.detail, [
          {
            type: "string_too_long",
            loc: ["body", "username"],
            msg: "String should have at most 4096 characters",
            input: null,
            ctx: { max_length: 4096 }
          }
        ])
        assert.notInclude(info.text, long.slice(0, 100))
        const header = yield* call(url, "/v2/api/balance", { headers: { "x-api-key": "k".repeat(20_000) } })
        assert.strictEqual(header.status, 431)
      })
  )

  it.effect("ids in paths are positive: 0 or below answers 422 (greater_than), never a 5xx, signed in or not", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const user = yield* signIn(url, 86001, "ids_user")
      const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie: user })).json.api_key as string
      const admin = yield* adminSignIn(url)
      const credentials = (path: string) =>
        path.startsWith("/v2/api/admin")
          ? { headers: { "x-admin-token": TEST_ADMIN_TOKEN } }
          : path.startsWith("/v2/api/")
            ? { headers: { "x-api-key": key } }
            : path.startsWith("/v2/admin")
              ? { cookie: admin }
              : { cookie: user }
      const cases: Array<[string, string, string]> = [
        ["GET", "/v2/api/orders/0", "order_id"],
        ["GET", "/v2/receipts/-1", "topup_id"],
        ["GET", "/v2/tickets/-5/poll", "ticket_id"],
        ["POST", "/v2/admin/topups/0/approve", "topup_id"],
        ["POST", "/v2/balance/topup/0/cancel", "topup_id"],
        ["POST", "/v2/api/admin/topups/-3/mark-paid", "topup_id"]
      ]
      for (const [method, path, name] of cases) {
        for (const options of [{ method, ...credentials(path) }, { method }]) {
          const answer = yield* call(url, path, options)
          assert.strictEqual(answer.status, 422, `${method} ${path}: ${answer.text}`)
          assert.deepInclude(answer.json.detail[0], { type: "greater_than", loc: ["path", name], ctx: { gt: 0 } })
        }
      }
    })
  )
})
