import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { stampErrorBody } from "@resale/webkit/ErrorBody.ts"
import { type Answer, call } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

/** An error body as every one must be: a string `code` and the answer's `X-Request-Id` as `request_id`. */
const assertStamped = (answer: Answer, status: number, code: string, what: string) => {
  assert.strictEqual(answer.status, status, `${what}: ${answer.text}`)
  assert.strictEqual(answer.json?.code, code, what)
  assert.isString(answer.headers["x-request-id"], what)
  assert.strictEqual(answer.json?.request_id, answer.headers["x-request-id"], what)
}

describe("stampErrorBody", () => {
  it("leaves successes, non-JSON and non-object bodies alone; keeps a code it finds", () => {
    const ok = HttpServerResponse.jsonUnsafe({ a: 1 })
    assert.strictEqual(stampErrorBody(ok, "r1"), ok)
    const html = HttpServerResponse.text("<p>no</p>", { status: 404, contentType: "text/html" })
    assert.strictEqual(stampErrorBody(html, "r1"), html)
    const list = HttpServerResponse.jsonUnsafe([1], { status: 400 })
    assert.strictEqual(stampErrorBody(list, "r1"), list)
    const coded = stampErrorBody(
      HttpServerResponse.jsonUnsafe({ detail: "x", code: "not_found" }, { status: 404 }),
      "r2"
    )
    assert.strictEqual(
      coded.body._tag === "Uint8Array" ? coded.body.text : "",
      '{"detail":"x","code":"not_found","request_id":"r2"}'
    )
  })
})

layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })("every error body", (it) => {
  it.effect("carries request_id equal to X-Request-Id and a string code, 422 included (detail unchanged)", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const mine = { "x-request-id": "integrator-7.retry:2" }
      const invalid = yield* call(url, "/v2/balance/top-up", { form: { other: "1" }, headers: mine })
      assertStamped(invalid, 422, "validation_error", "422")
      assert.strictEqual(invalid.json.request_id, "integrator-7.retry:2")
      assert.deepStrictEqual(invalid.json.detail, [
        { type: "missing", loc: ["body", "amount_uzs"], msg: "Field required", input: null }
      ])
      assertStamped(yield* call(url, "/v2/api/webhooks"), 401, "api_key_missing", "webhooks without a key")
      assertStamped(
        yield* call(url, "/v2/api/balance", { headers: { "x-api-key": "rk_nobody" } }),
        401,
        "api_key_invalid",
        "balance (the fast path hands it on)"
      )
      assertStamped(yield* call(url, "/v2/no-such-page"), 404, "not_found", "404")
      assertStamped(yield* call(url, "/v2/api/pricing", { method: "DELETE" }), 405, "method_not_allowed", "405")
      assertStamped(
        yield* call(url, "/v2/api/stars/buy", { json: { username: "x".repeat(70 * 1024) } }),
        413,
        "payload_too_large",
        "413"
      )
      assertStamped(yield* call(url, "/v2/dashboard"), 401, "not_authenticated", "session route")
      // A 415 becomes FastAPI's 422 in the fallback; it is stamped all the same.
      assertStamped(
        yield* call(url, "/v2/api/stars/buy", { headers: { "content-type": "text/plain" }, body: "x" }),
        422,
        "validation_error",
        "415 as 422"
      )
    })
  )
})
