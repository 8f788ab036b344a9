import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, signIn, TEST_ADMIN_TOKEN } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

const admin = { "x-admin-token": TEST_ADMIN_TOKEN }

/** GET /v2/api/orders and /v2/api/topups: newest first, by cursor, filtered, owner only. */
layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })("API lists", (it) => {
  const account = (telegramId: number, name: string) =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cookie = yield* signIn(url, telegramId, name)
      const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key as string
      return { cookie, headers: { "x-api-key": key } }
    })

  it.effect(
    "orders: newest first, pages by cursor until has_more is false, filters by status, kind and created_after",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const { cookie, headers } = yield* account(96001, "lister")
        const topup = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "5000000" }, cookie })).json.topup
        assert.strictEqual(
          (yield* call(url, `/v2/api/admin/topups/${topup.topup_id}/mark-paid`, { method: "POST", headers: admin }))
            .status,
          200
        )
        const placed: Array<number> = []
        for (let i = 0; i < 5; i++) {
          const order = yield* call(url, "/v2/api/stars/buy", { json: { username: "friend", amount: 50 + i }, headers })
          assert.strictEqual(order.status, 200, order.text)
          placed.push(order.json.order.order_id)
        }
        const premium = yield* call(url, "/v2/api/premium/buy", { json: { username: "friend", duration: 3 }, headers })
        placed.push(premium.json.order.order_id)
        const newestFirst = [...placed].reverse()

        const seen: Array<number> = []
        let cursor: number | null = null
        let pages = 0
        do {
          const page: { json: { orders: Array<{ order_id: number }>; has_more: boolean; next_cursor: number | null } } =
            yield* call(url, `/v2/api/orders?limit=4${cursor === null ? "" : `&cursor=${cursor}`}`, { headers })
          seen.push(...page.json.orders.map((o) => o.order_id))
          cursor = page.json.next_cursor
          assert.strictEqual(page.json.has_more, cursor !== null)
          pages++
        } while (cursor !== null)
        assert.deepStrictEqual(seen, newestFirst)
        assert.strictEqual(pages, 2)

        const onlyPremium = (yield* call(url, "/v2/api/orders?kind=premium", { headers })).json
        assert.deepStrictEqual(
          onlyPremium.orders.map((o: { order_id: number }) => o.order_id),
          [premium.json.order.order_id]
        )
        const queued = (yield* call(url, "/v2/api/orders?status=queued&kind=stars", { headers })).json
        assert.strictEqual(queued.orders.length, 5)
        assert.strictEqual((yield* call(url, "/v2/api/orders?status=completed", { headers })).json.orders.length, 0)
        const future = (yield* call(url, "/v2/api/orders?created_after=2999-01-01T00:00:00Z", { headers })).json
        assert.deepStrictEqual([future.orders, future.has_more, future.next_cursor], [[], false, null])
        const past = (yield* call(url, "/v2/api/orders?created_after=2000-01-01T00:00:00Z", { headers })).json
        assert.strictEqual(past.orders.length, 6)

        // Someone else sees none of them.
        const other = yield* account(96002, "stranger")
        assert.deepStrictEqual((yield* call(url, "/v2/api/orders", { headers: other.headers })).json.orders, [])
      })
  )

  it.effect("top-ups: own only, newest first, status and method filters", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const { cookie, headers } = yield* account(96003, "topper")
      const a = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "10000" }, cookie })).json.topup.topup_id
      const b = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "20000" }, cookie })).json.topup.topup_id
      yield* call(url, `/v2/api/admin/topups/${a}/mark-paid`, { method: "POST", headers: admin })
      const all = (yield* call(url, "/v2/api/topups", { headers })).json
      assert.deepStrictEqual(
        all.topups.map((t: { topup_id: number }) => t.topup_id),
        [b, a]
      )
      const paid = (yield* call(url, "/v2/api/topups?status=paid&method=card", { headers })).json
      assert.deepStrictEqual(
        paid.topups.map((t: { topup_id: number }) => t.topup_id),
        [a]
      )
      assert.deepStrictEqual((yield* call(url, "/v2/api/topups?method=receipt", { headers })).json.topups, [])
      const second = (yield* call(url, `/v2/api/topups?limit=1&cursor=${b}`, { headers })).json
      assert.deepStrictEqual(
        [second.topups.map((t: { topup_id: number }) => t.topup_id), second.has_more],
        [[a], false]
      )
    })
  )

  it.effect(
    "bad list input: an unknown status or a limit outside 1..100 is FastAPI's 422; a bad date is 400 page_invalid",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const { headers } = yield* account(96004, "bad_input")
        const status = yield* call(url, "/v2/api/orders?status=shipped", { headers })
        assert.strictEqual(status.status, 422)
        assert.deepInclude(status.json.detail[0], { type: "enum", loc: ["query", "status"], input: "shipped" })
        const cursor = yield* call(url, "/v2/api/orders?cursor=0", { headers })
        assert.strictEqual(cursor.status, 422)
        const date = yield* call(url, "/v2/api/orders?created_after=yesterday", { headers })
        assert.deepStrictEqual(
          [date.status, date.json.code, date.json.params],
          [400, "page_invalid", { field: "created_after" }]
        )
        // limit is bounded by the schema (1..100) as FastAPI's Query(ge=1, le=100): 422, never cut to 100.
        const limit = yield* call(url, "/v2/api/topups?limit=0", { headers })
        assert.strictEqual(limit.status, 422)
        assert.deepStrictEqual(limit.json.detail, [
          {
            type: "greater_than_equal",
            loc: ["query", "limit"],
            msg: "Input should be greater than or equal to 1",
            input: "0",
            ctx: { ge: 1 }
          }
        ])
        const over = yield* call(url, "/v2/api/orders?limit=101", { headers })
        assert.strictEqual(over.status, 422)
        assert.deepStrictEqual(over.json.detail, [
          {
            type: "less_than_equal",
            loc: ["query", "limit"],
            msg: "Input should be less than or equal to 100",
            input: "101",
            ctx: { le: 100 }
          }
        ])
        assert.strictEqual((yield* call(url, "/v2/api/orders?limit=100", { headers })).status, 200)
        assert.strictEqual((yield* call(url, "/v2/api/orders")).status, 401)
      })
  )
})
