import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminSignIn, call } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

const PRICES = {
  star_price_uzs: "250",
  premium_3_month_uzs: "180000",
  premium_6_month_uzs: "240000",
  premium_12_month_uzs: "420000"
}

/** `GET /v2/api/pricing` is answered in front of the router; it must answer exactly as the contract's endpoint. */
layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })("pricing fast path", (it) => {
  it.effect("answers the contract's JSON, with or without a query, as HEAD (through the HttpApi) describes it", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const get = yield* call(url, "/v2/api/pricing")
      assert.strictEqual(get.status, 200)
      assert.strictEqual(get.headers["content-type"], "application/json")
      assert.deepStrictEqual(Object.keys(get.json as object).sort(), [
        "premium_12_month_uzs",
        "premium_3_month_uzs",
        "premium_6_month_uzs",
        "sandbox",
        "star_price_uzs"
      ])
      const head = yield* call(url, "/v2/api/pricing", { method: "HEAD" })
      assert.strictEqual(head.status, 200)
      assert.strictEqual(head.headers["content-length"], String(Buffer.byteLength(get.text)))
      assert.strictEqual((yield* call(url, "/v2/api/pricing?lang=ru")).text, get.text)
    })
  )

  it.effect("other methods and neighbouring paths still go to the router", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const post = yield* call(url, "/v2/api/pricing", { method: "POST" })
      assert.strictEqual(post.status, 405)
      assert.deepStrictEqual(post.json, {
        detail: "Method Not Allowed",
        code: "method_not_allowed",
        request_id: post.headers["x-request-id"]
      })
      const near = yield* call(url, "/v2/api/pricingx")
      assert.strictEqual(near.status, 404)
      assert.deepStrictEqual(near.json, {
        detail: "Not Found",
        code: "not_found",
        request_id: near.headers["x-request-id"]
      })
    })
  )

  it.effect("an operator's price change is in the very next answer, encoded once per price list", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const before = (yield* call(url, "/v2/api/pricing")).json as Record<string, unknown>
      const op = yield* adminSignIn(url)
      const set = yield* call(url, "/v2/admin/pricing", { form: PRICES, cookie: op })
      assert.strictEqual(set.status, 200, set.text)
      const after = (yield* call(url, "/v2/api/pricing")).json as Record<string, unknown>
      assert.deepStrictEqual(after, {
        star_price_uzs: 250,
        premium_3_month_uzs: 180000,
        premium_6_month_uzs: 240000,
        premium_12_month_uzs: 420000,
        sandbox: before["sandbox"]
      })
      assert.notStrictEqual(before["star_price_uzs"], 250)
    })
  )
})
