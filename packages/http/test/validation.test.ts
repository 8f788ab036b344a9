import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, PNG, signIn } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

/** FastAPI's 422 record, exactly: pydantic 2 types and messages, every invalid part at once, before auth. */
layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })("FastAPI validation", (it) => {
  it.effect("a missing form field is `missing` / Field required, before authentication", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const answer = yield* call(url, "/v2/balance/top-up", { form: { other: "1" } })
      assert.strictEqual(answer.status, 422)
      // FastAPI's list unchanged, plus the code and request id every error body carries.
      assert.deepStrictEqual(answer.json, {
        detail: [{ type: "missing", loc: ["body", "amount_uzs"], msg: "Field required", input: null }],
        code: "validation_error",
        request_id: answer.headers["x-request-id"]
      })
    })
  )

  it.effect("a non-integer form value is int_parsing with the input echoed", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const answer = yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "12abc" } })
      assert.strictEqual(answer.status, 422)
      assert.deepStrictEqual(answer.json.detail, [
        {
          type: "int_parsing",
          loc: ["body", "amount_uzs"],
          msg: "Input should be a valid integer, unable to parse string as an integer",
          input: "12abc"
        }
      ])
    })
  )

  it.effect("path, query and body errors are reported together, in FastAPI's order", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const poll = yield* call(url, "/v2/tickets/abc/poll?after=x")
      assert.strictEqual(poll.status, 422)
      assert.deepStrictEqual(
        poll.json.detail.map((d: { loc: Array<unknown> }) => d.loc),
        [
          ["path", "ticket_id"],
          ["query", "after"]
        ]
      )
      const approve = yield* call(url, "/v2/admin/topups/x/approve", { form: { admin_note: "fine" } })
      assert.deepStrictEqual(
        approve.json.detail.map((d: { loc: Array<unknown> }) => d.loc),
        [["path", "topup_id"]]
      )
      const pricing = yield* call(url, "/v2/admin/pricing", {
        form: { star_price_uzs: "1.5", premium_3_month_uzs: "" }
      })
      assert.deepStrictEqual(
        pricing.json.detail.map((d: { loc: Array<unknown>; type: string }) => [d.loc[1], d.type]),
        [
          ["star_price_uzs", "int_parsing"],
          ["premium_3_month_uzs", "missing"],
          ["premium_6_month_uzs", "missing"],
          ["premium_12_month_uzs", "missing"]
        ]
      )
    })
  )

  it.effect("JSON bodies: json_invalid, model_attributes_type, missing body, int_from_float, string_type", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const invalid = yield* call(url, "/v2/api/stars/buy", {
        body: '{"username": ',
        headers: { "content-type": "application/json" }
      })
      assert.strictEqual(invalid.status, 422)
      assert.strictEqual(invalid.json.detail[0].type, "json_invalid")
      assert.strictEqual(invalid.json.detail[0].msg, "JSON decode error")
      assert.strictEqual(invalid.json.detail[0].loc[0], "body")
      assert.strictEqual(typeof invalid.json.detail[0].loc[1], "number")

      const array = yield* call(url, "/v2/api/stars/buy", { json: [1, 2] })
      assert.deepStrictEqual(array.json.detail, [
        {
          type: "model_attributes_type",
          loc: ["body"],
          msg: "Input should be a valid dictionary or object to extract fields from",
          input: [1, 2]
        }
      ])

      const empty = yield* call(url, "/v2/api/stars/buy", {
        method: "POST",
        headers: { "content-type": "application/json" }
      })
      assert.deepStrictEqual(empty.json.detail, [
        { type: "missing", loc: ["body"], msg: "Field required", input: null }
      ])

      const fields = yield* call(url, "/v2/api/stars/buy", { json: { username: 5, amount: 1.5 } })
      assert.deepStrictEqual(fields.json.detail, [
        { type: "string_type", loc: ["body", "username"], msg: "Input should be a valid string", input: 5 },
        {
          type: "int_from_float",
          loc: ["body", "amount"],
          msg: "Input should be a valid integer, got a number with a fractional part",
          input: 1.5
        }
      ])
      const missing = yield* call(url, "/v2/api/premium/buy", { json: { username: "bob" } })
      assert.deepStrictEqual(missing.json.detail, [
        { type: "missing", loc: ["body", "duration"], msg: "Field required", input: { username: "bob" } }
      ])
    })
  )

  it.effect(
    "numeric strings pass for integer JSON fields (pydantic lax mode): the request reaches authentication",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const answer = yield* call(url, "/v2/api/stars/buy", { json: { username: "bob", amount: "100" } })
        assert.strictEqual(answer.status, 401)
        const bad = yield* call(url, "/v2/api/stars/buy", { json: { username: "bob", amount: "1e2x" } })
        assert.strictEqual(bad.status, 422)
        assert.strictEqual(bad.json.detail[0].type, "int_parsing")
      })
  )

  it.effect("multipart: integer fields from text, the file required, all reported together", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const nothing = new FormData()
      nothing.set("note", "x")
      const answer = yield* call(url, "/v2/balance/top-up/receipt", { body: nothing })
      assert.strictEqual(answer.status, 422)
      assert.deepStrictEqual(
        answer.json.detail.map((d: { loc: Array<string>; type: string }) => [d.loc[1], d.type]),
        [
          ["amount_uzs", "missing"],
          ["receipt", "missing"]
        ]
      )
      const cookie = yield* signIn(url, 7001, "multipart_user")
      const form = new FormData()
      form.set("amount_uzs", "15000")
      form.set("receipt", new Blob([PNG], { type: "image/png" }), "r.png")
      const ok = yield* call(url, "/v2/balance/top-up/receipt", { body: form, cookie })
      assert.strictEqual(ok.status, 200, ok.text)
      assert.strictEqual(ok.json.amount_uzs, 15000)
    })
  )

  it.effect(
    "a form endpoint sent JSON sees an empty form (Starlette), a JSON endpoint sent a form gets model_attributes_type",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const form = yield* call(url, "/v2/balance/top-up", { json: { amount_uzs: 5 } })
        assert.deepStrictEqual(
          form.json.detail.map((d: { type: string }) => d.type),
          ["missing"]
        )
        const json = yield* call(url, "/v2/api/getInfo", { form: { username: "x" } })
        assert.strictEqual(json.json.detail[0].type, "model_attributes_type")
      })
  )

  it.effect("push subscribe needs a JSON object (dict_type otherwise)", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const answer = yield* call(url, "/v2/push/subscribe", { json: "text" })
      assert.deepStrictEqual(answer.json.detail, [
        { type: "dict_type", loc: ["body"], msg: "Input should be a valid dictionary", input: "text" }
      ])
    })
  )

  it.effect("unknown routes answer 404 Not Found, a wrong method 405", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const missing = yield* call(url, "/v2/no-such-page")
      assert.strictEqual(missing.status, 404)
      assert.deepStrictEqual(missing.json, {
        detail: "Not Found",
        code: "not_found",
        request_id: missing.headers["x-request-id"]
      })
      const method = yield* call(url, "/v2/api/pricing", { method: "DELETE" })
      assert.strictEqual(method.status, 405)
      assert.deepStrictEqual(method.json, {
        detail: "Method Not Allowed",
        code: "method_not_allowed",
        request_id: method.headers["x-request-id"]
      })
      const get = yield* call(url, "/v2/balance/top-up")
      assert.strictEqual(get.status, 405)
    })
  )

  it.effect("query defaults: offset 0, limit 20", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cookie = yield* signIn(url, 7002, "defaults_user")
      const answer = yield* call(url, "/v2/orders/list", { cookie })
      assert.strictEqual(answer.status, 200)
      assert.strictEqual(answer.json.offset, 0)
      assert.strictEqual(answer.json.limit, 20)
      const bad = yield* call(url, "/v2/orders/list?offset=a&limit=b", { cookie })
      assert.deepStrictEqual(
        bad.json.detail.map((d: { loc: Array<string> }) => d.loc),
        [
          ["query", "offset"],
          ["query", "limit"]
        ]
      )
    })
  )

  it.effect("the OpenAPI document declares the 422 record and the spec's request bodies", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const doc = (yield* call(url, "/v2/openapi.json")).json
      assert.strictEqual(doc.openapi, "3.1.0")
      const topup = doc.paths["/v2/balance/top-up"].post
      assert.ok(topup.responses["422"], "422 documented")
      assert.ok(topup.requestBody.content["application/x-www-form-urlencoded"])
      assert.ok(doc.paths["/v2/api/stars/buy"].post.requestBody.content["application/json"])
      assert.ok(doc.paths["/v2/tickets/{ticket_id}/poll"].get)
    })
  )

  it.effect("every route with input answers 422 for bad input, anonymous, naming each invalid part", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cases: Array<[string, string, Record<string, unknown>, Array<Array<string>>]> = [
        ["POST", "/v2/balance/top-up", { form: {} }, [["body", "amount_uzs"]]],
        ["POST", "/v2/balance/topup/x/cancel", {}, [["path", "topup_id"]]],
        [
          "POST",
          "/v2/balance/top-up/receipt",
          { body: new FormData() },
          [
            ["body", "amount_uzs"],
            ["body", "receipt"]
          ]
        ],
        ["GET", "/v2/receipts/x", {}, [["path", "topup_id"]]],
        ["GET", "/v2/orders/list?offset=-", {}, [["query", "offset"]]],
        [
          "POST",
          "/v2/gifts/buy",
          { form: { comment: "c" } },
          [
            ["body", "username"],
            ["body", "gift_id"]
          ]
        ],
        ["POST", "/v2/api-docs/getinfo-upgrade", { form: { tier: "gold" } }, [["body", "tier"]]],
        ["GET", "/v2/tickets/x", {}, [["path", "ticket_id"]]],
        [
          "GET",
          "/v2/tickets/x/poll?after=y",
          {},
          [
            ["path", "ticket_id"],
            ["query", "after"]
          ]
        ],
        ["POST", "/v2/tickets/x/reply", { form: { body: "b" } }, [["path", "ticket_id"]]],
        ["POST", "/v2/push/subscribe", { json: [] }, [["body"]]],
        ["POST", "/v2/bot/webhook/s", { body: "{", headers: { "content-type": "application/json" } }, [["body", "1"]]],
        [
          "POST",
          "/v2/admin/pricing",
          { form: { star_price_uzs: "1" } },
          [
            ["body", "premium_3_month_uzs"],
            ["body", "premium_6_month_uzs"],
            ["body", "premium_12_month_uzs"]
          ]
        ],
        ["POST", "/v2/admin/topups/x/approve", {}, [["path", "topup_id"]]],
        ["POST", "/v2/admin/topups/x/reject", {}, [["path", "topup_id"]]],
        ["POST", "/v2/admin/orders/x/retry", {}, [["path", "order_id"]]],
        ["POST", "/v2/admin/orders/x/mark-done", {}, [["path", "order_id"]]],
        ["GET", "/v2/admin/tickets/x/poll", {}, [["path", "ticket_id"]]],
        ["POST", "/v2/admin/tickets/x/reply", {}, [["path", "ticket_id"]]],
        ["POST", "/v2/admin/tickets/x/close", {}, [["path", "ticket_id"]]],
        ["POST", "/v2/admin/tickets/x/reopen", {}, [["path", "ticket_id"]]],
        [
          "POST",
          "/v2/api/stars/buy",
          { json: {} },
          [
            ["body", "username"],
            ["body", "amount"]
          ]
        ],
        ["POST", "/v2/api/premium/buy", { json: { username: "u", duration: "six" } }, [["body", "duration"]]],
        [
          "POST",
          "/v2/api/gift/buy",
          { json: { username: "u", gift_id: 5, anonymous: "maybe" } },
          [
            ["body", "gift_id"],
            ["body", "anonymous"]
          ]
        ],
        ["POST", "/v2/api/getInfo", { json: {} }, [["body", "username"]]],
        ["POST", "/v2/api/admin/topups/x/mark-paid", {}, [["path", "topup_id"]]],
        ["POST", "/v2/api/admin/payments/incoming", { json: { amount_uzs: "lots" } }, [["body", "amount_uzs"]]]
      ]
      for (const [method, path, options, locs] of cases) {
        const answer = yield* call(url, path, { method, ...options })
        assert.strictEqual(answer.status, 422, `${method} ${path}: ${answer.text}`)
        assert.deepStrictEqual(
          answer.json.detail.map((d: { loc: Array<unknown> }) => d.loc.map(String)),
          locs,
          `${method} ${path}`
        )
      }
    })
  )
})
