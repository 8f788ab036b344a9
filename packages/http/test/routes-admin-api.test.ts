import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminSignIn, call, PNG, signIn, TEST_ADMIN_TOKEN } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

const admin = { "x-admin-token": TEST_ADMIN_TOKEN }

/** Operator pages and operations, the API-key API and the admin API. */
layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })("operator and API routes", (it) => {
  const funded = (telegramId: number, name: string, amount: number) =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cookie = yield* signIn(url, telegramId, name)
      const topup = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: String(amount) }, cookie })).json
        .topup
      const paid = yield* call(url, `/v2/api/admin/topups/${topup.topup_id}/mark-paid`, {
        method: "POST",
        headers: admin
      })
      assert.strictEqual(paid.json.status, "paid")
      const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key as string
      return { cookie, key, balance: topup.payable_uzs as number, topupId: topup.topup_id as number }
    })

  it.effect("pricing: public read; operator update takes positive integers only", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const op = yield* adminSignIn(url)
      const prices = {
        star_price_uzs: "240",
        premium_3_month_uzs: "175000",
        premium_6_month_uzs: "235000",
        premium_12_month_uzs: "415000"
      }
      const set = yield* call(url, "/v2/admin/pricing", { form: prices, cookie: op })
      assert.strictEqual(set.status, 200, set.text)
      assert.strictEqual((yield* call(url, "/v2/api/pricing")).json.star_price_uzs, 240)
      const zero = yield* call(url, "/v2/admin/pricing", { form: { ...prices, star_price_uzs: "0" }, cookie: op })
      assert.strictEqual(zero.status, 400)
      const negative = yield* call(url, "/v2/admin/pricing", {
        form: { ...prices, premium_3_month_uzs: "-5" },
        cookie: op
      })
      assert.strictEqual(negative.status, 400)
      assert.strictEqual((yield* call(url, "/v2/api/pricing")).json.star_price_uzs, 240)
    })
  )

  it.effect("top-ups: operator list, approve credits once, reject; the admin page shows counts", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const op = yield* adminSignIn(url)
      const cookie = yield* signIn(url, 95001, "approve_user")
      const t1 = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "10000" }, cookie })).json.topup
      const t2 = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "20000" }, cookie })).json.topup
      const listed = (yield* call(url, "/v2/admin/topups", { cookie: op })).json
      assert.isTrue(listed.topups.some((t: { topup_id: number }) => t.topup_id === t1.topup_id))
      const home = (yield* call(url, "/v2/admin", { cookie: op })).json
      assert.isAtLeast(home.pending_topups, 2)
      assert.deepStrictEqual((yield* call(url, "/v2/admin/", { cookie: op })).json, home)
      const approved = yield* call(url, `/v2/admin/topups/${t1.topup_id}/approve`, {
        form: { admin_note: "seen on card" },
        cookie: op
      })
      assert.deepStrictEqual([approved.json.status, approved.json.admin_note], ["paid", "seen on card"])
      const twice = yield* call(url, `/v2/admin/topups/${t1.topup_id}/approve`, { form: {}, cookie: op })
      assert.strictEqual(twice.status, 409)
      const rejected = yield* call(url, `/v2/admin/topups/${t2.topup_id}/reject`, { cookie: op, method: "POST" })
      assert.strictEqual(rejected.json.status, "rejected")
      assert.strictEqual((yield* call(url, "/v2/balance", { cookie })).json.balance_uzs, t1.payable_uzs)
      assert.strictEqual((yield* call(url, "/v2/admin/topups/999999/approve", { form: {}, cookie: op })).status, 404)
    })
  )

  it.effect("top-ups: a receipt repeating a recent credit is approved only with confirm_duplicate", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const op = yield* adminSignIn(url)
      const { balance, cookie, topupId } = yield* funded(95009, "dup_user", 30000)
      const form = new FormData()
      form.set("amount_uzs", String(balance))
      form.set("receipt", new Blob([PNG], { type: "image/png" }), "receipt.png")
      const again = (yield* call(url, "/v2/balance/top-up/receipt", { body: form, cookie })).json
      const list = yield* call(url, "/v2/admin/topups", { cookie: op })
      assert.strictEqual(list.status, 200, list.text)
      const queue = list.json.topups
      const listed = queue.find((t: { topup_id: number }) => t.topup_id === again.topup_id)
      assert.strictEqual(listed.possible_duplicate_of, topupId)
      const refused = yield* call(url, `/v2/admin/topups/${again.topup_id}/approve`, { form: {}, cookie: op })
      assert.strictEqual(refused.status, 409)
      assert.match(refused.json.detail, new RegExp(`^Possible duplicate: top-up #${topupId} of ${balance} UZS`))
      assert.strictEqual((yield* call(url, "/v2/balance", { cookie })).json.balance_uzs, balance)
      const bad = yield* call(url, `/v2/admin/topups/${again.topup_id}/approve`, {
        form: { confirm_duplicate: "maybe" },
        cookie: op
      })
      assert.deepStrictEqual([bad.status, bad.json.detail[0].type], [422, "bool_parsing"])
      const approved = yield* call(url, `/v2/admin/topups/${again.topup_id}/approve`, {
        form: { confirm_duplicate: "true" },
        cookie: op
      })
      assert.deepStrictEqual([approved.status, approved.json.status], [200, "paid"])
      assert.strictEqual((yield* call(url, "/v2/balance", { cookie })).json.balance_uzs, 2 * balance)
    })
  )

  it.effect("API: balance, stars, premium and gift orders debit the balance and queue; 409 when short", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const { balance, key } = yield* funded(95002, "api_user", 900000)
      const headers = { "x-api-key": key }
      assert.strictEqual((yield* call(url, "/v2/api/balance", { headers })).json.balance_uzs, balance)
      const prices = (yield* call(url, "/v2/api/pricing")).json
      const stars = yield* call(url, "/v2/api/stars/buy", { json: { username: "@friend", amount: "100" }, headers })
      assert.strictEqual(stars.status, 200, stars.text)
      assert.deepStrictEqual(
        [stars.json.order.kind, stars.json.order.stars, stars.json.order.status],
        ["stars", 100, "queued"]
      )
      assert.strictEqual(stars.json.balance_uzs, balance - 100 * prices.star_price_uzs)
      const premium = yield* call(url, "/v2/api/premium/buy", { json: { username: "friend", duration: 3 }, headers })
      assert.strictEqual(premium.status, 200, premium.text)
      assert.strictEqual(premium.json.order.price_uzs, prices.premium_3_month_uzs)
      const badDuration = yield* call(url, "/v2/api/premium/buy", {
        json: { username: "friend", duration: 5 },
        headers
      })
      assert.strictEqual(badDuration.status, 400)
      const tooFew = yield* call(url, "/v2/api/stars/buy", { json: { username: "friend", amount: 10 }, headers })
      assert.strictEqual(tooFew.status, 400)
      const gifts = (yield* call(url, "/v2/api/gifts", { headers })).json.gifts
      const gift = yield* call(url, "/v2/api/gift/buy", {
        json: { username: "friend", gift_id: gifts[0].gift_id, comment: null, account: null, anonymous: true },
        headers
      })
      assert.strictEqual(gift.status, 200, gift.text)
      const left = (yield* call(url, "/v2/api/balance", { headers })).json.balance_uzs
      const short = yield* call(url, "/v2/api/stars/buy", { json: { username: "friend", amount: 1_000_000 }, headers })
      assert.strictEqual(short.status, 409)
      assert.match(short.json.detail, /Insufficient balance/)
      assert.strictEqual((yield* call(url, "/v2/api/balance", { headers })).json.balance_uzs, left)
    })
  )

  it.effect("API: an order after the operator changed the prices is charged at the new prices", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const op = yield* adminSignIn(url)
      const { balance, key } = yield* funded(95010, "repriced_user", 900000)
      const headers = { "x-api-key": key }
      const before = (yield* call(url, "/v2/api/pricing")).json
      const first = yield* call(url, "/v2/api/stars/buy", { json: { username: "friend", amount: 50 }, headers })
      assert.deepStrictEqual(
        [first.json.order.price_uzs, first.json.balance_uzs],
        [50 * before.star_price_uzs, balance - 50 * before.star_price_uzs]
      )
      const raised = { ...before, star_price_uzs: before.star_price_uzs + 7 }
      const form = Object.fromEntries(
        Object.entries(raised)
          .filter(([k]) => k.endsWith("_uzs"))
          .map(([k, v]) => [k, String(v)])
      )
      assert.strictEqual((yield* call(url, "/v2/admin/pricing", { form, cookie: op })).status, 200)
      const second = yield* call(url, "/v2/api/stars/buy", { json: { username: "friend", amount: 50 }, headers })
      assert.strictEqual(second.json.order.price_uzs, 50 * raised.star_price_uzs)
      assert.strictEqual(second.json.balance_uzs, first.json.balance_uzs - 50 * raised.star_price_uzs)
      assert.strictEqual((yield* call(url, "/v2/api/balance", { headers })).json.balance_uzs, second.json.balance_uzs)
      const restore = Object.fromEntries(
        Object.entries(before)
          .filter(([k]) => k.endsWith("_uzs"))
          .map(([k, v]) => [k, String(v)])
      )
      assert.strictEqual((yield* call(url, "/v2/admin/pricing", { form: restore, cookie: op })).status, 200)
    })
  )

  it.effect("API: an order is followed by its id with the owner's key only", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const owner = yield* funded(95006, "follow_owner", 100000)
      const other = yield* funded(95007, "follow_other", 100000)
      const placed = (yield* call(url, "/v2/api/stars/buy", {
        json: { username: "friend", amount: 50 },
        headers: { "x-api-key": owner.key }
      })).json.order
      const path = `/v2/api/orders/${placed.order_id}`
      const seen = yield* call(url, path, { headers: { "x-api-key": owner.key } })
      assert.strictEqual(seen.status, 200, seen.text)
      assert.deepStrictEqual(seen.json, placed)
      const foreign = yield* call(url, path, { headers: { "x-api-key": other.key } })
      assert.deepStrictEqual(
        [foreign.status, foreign.json],
        [404, { detail: "Order not found", code: "order_not_found", request_id: foreign.headers["x-request-id"] }]
      )
      assert.strictEqual(
        (yield* call(url, "/v2/api/orders/99999999", { headers: { "x-api-key": owner.key } })).status,
        404
      )
      assert.strictEqual((yield* call(url, path)).status, 401)
      assert.strictEqual((yield* call(url, path, { headers: { "x-api-key": "rk_wrong" } })).status, 401)
      const badId = yield* call(url, "/v2/api/orders/abc", { headers: { "x-api-key": owner.key } })
      assert.deepStrictEqual(
        [badId.status, badId.json.detail[0].loc, badId.json.detail[0].type],
        [422, ["path", "order_id"], "int_parsing"]
      )
      // An operator's session is not an API key.
      assert.strictEqual((yield* call(url, path, { cookie: yield* adminSignIn(url) })).status, 401)
    })
  )

  it.effect(
    "API: Idempotency-Key on an order charges once; another body or another endpoint under the key is 409",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const { balance, key } = yield* funded(95003, "idem_user", 100000)
        const headers = { "x-api-key": key, "idempotency-key": "order-abc" }
        const first = yield* call(url, "/v2/api/stars/buy", { json: { username: "friend", amount: 50 }, headers })
        assert.isUndefined(first.headers["idempotent-replayed"])
        const second = yield* call(url, "/v2/api/stars/buy", { json: { username: "friend", amount: 50 }, headers })
        assert.strictEqual(second.status, 200)
        assert.strictEqual(second.headers["idempotent-replayed"], "true")
        assert.deepStrictEqual(second.json.order, first.json.order)
        const other = yield* call(url, "/v2/api/stars/buy", { json: { username: "friend", amount: 60 }, headers })
        assert.deepStrictEqual([other.status, other.json.code], [409, "idempotency_key_reused"])
        // The key belongs to the user across every money-moving endpoint: premium and the web form refuse it.
        const premium = yield* call(url, "/v2/api/premium/buy", { json: { username: "friend", duration: 3 }, headers })
        assert.deepStrictEqual([premium.status, premium.json.code], [409, "idempotency_key_endpoint_mismatch"])
        const topup = yield* call(url, "/v2/balance/top-up", {
          form: { amount_uzs: "5000" },
          cookie: yield* signIn(url, 95003, "idem_user"),
          headers: { "idempotency-key": "order-abc" }
        })
        assert.deepStrictEqual([topup.status, topup.json.code], [409, "idempotency_key_endpoint_mismatch"])
        const after = (yield* call(url, "/v2/api/balance", { headers: { "x-api-key": key } })).json.balance_uzs
        assert.strictEqual(after, balance - first.json.order.price_uzs)
      })
  )

  it.effect("API: info lookup through the sandbox marketplace counts against the daily quota", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cookie = yield* signIn(url, 95004, "lookup_user")
      const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key
      const headers = { "x-api-key": key }
      const first = yield* call(url, "/v2/api/getInfo", { json: { username: "durov" }, headers })
      assert.strictEqual(first.status, 200, first.text)
      assert.deepStrictEqual([first.json.quota.used, first.json.quota.limit], [1, 10])
      for (let i = 2; i <= 10; i++) yield* call(url, "/v2/api/getInfo", { json: { username: "durov" }, headers })
      const over = yield* call(url, "/v2/api/getInfo", { json: { username: "durov" }, headers })
      assert.deepStrictEqual([over.status, over.json.code], [429, "info_quota_exceeded"])
      // Until the next UTC midnight, in whole seconds.
      const after = Number(over.headers["retry-after"])
      assert.isTrue(Number.isInteger(after) && after >= 1 && after <= 86_400, String(over.headers["retry-after"]))
    })
  )

  it.effect("orders: operator list, retry only from failed (409), mark-done with a tx id", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const op = yield* adminSignIn(url)
      const { key } = yield* funded(95005, "ops_user", 100000)
      const order = (yield* call(url, "/v2/api/stars/buy", {
        json: { username: "friend", amount: 50 },
        headers: { "x-api-key": key }
      })).json.order
      assert.isTrue(
        (yield* call(url, "/v2/admin/orders", { cookie: op })).json.orders.some(
          (o: { order_id: number }) => o.order_id === order.order_id
        )
      )
      const retry = yield* call(url, `/v2/admin/orders/${order.order_id}/retry`, { method: "POST", cookie: op })
      assert.strictEqual(retry.status, 409)
      assert.match(retry.json.detail, /queued/)
      const done = yield* call(url, `/v2/admin/orders/${order.order_id}/mark-done`, {
        form: { tx_id: "manual-42" },
        cookie: op
      })
      assert.strictEqual(done.status, 200, done.text)
      assert.deepStrictEqual([done.json.status, done.json.tx_id], ["completed", "manual-42"])
      assert.strictEqual(
        (yield* call(url, "/v2/admin/orders/999999/retry", { method: "POST", cookie: op })).status,
        404
      )
    })
  )

  it.effect("tickets: operator list, poll, reply, close, reopen", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const op = yield* adminSignIn(url)
      const cookie = yield* signIn(url, 95007, "support_user")
      const ticket = (yield* call(url, "/v2/tickets/new", { form: { subject: "Refund", body: "please" }, cookie })).json
        .ticket
      const id = ticket.ticket_id
      assert.isTrue(
        (yield* call(url, "/v2/admin/tickets", { cookie: op })).json.tickets.some(
          (t: { ticket_id: number }) => t.ticket_id === id
        )
      )
      const answer = yield* call(url, `/v2/admin/tickets/${id}/reply`, { form: { body: "Done" }, cookie: op })
      assert.strictEqual(answer.json.author, "operator")
      const userPoll = (yield* call(url, `/v2/tickets/${id}/poll`, { cookie })).json
      assert.deepStrictEqual(
        userPoll.messages.map((m: { author: string }) => m.author),
        ["user", "operator"]
      )
      const opPoll = (yield* call(url, `/v2/admin/tickets/${id}/poll?after=${userPoll.messages[0].message_id}`, {
        cookie: op
      })).json
      assert.deepStrictEqual(
        opPoll.messages.map((m: { body: string }) => m.body),
        ["Done"]
      )
      assert.strictEqual(
        (yield* call(url, `/v2/admin/tickets/${id}/close`, { method: "POST", cookie: op })).json.status,
        "closed"
      )
      assert.strictEqual(
        (yield* call(url, `/v2/admin/tickets/${id}/close`, { method: "POST", cookie: op })).status,
        409
      )
      assert.strictEqual(
        (yield* call(url, `/v2/admin/tickets/${id}/reopen`, { method: "POST", cookie: op })).json.status,
        "open"
      )
      assert.strictEqual(
        (yield* call(url, "/v2/admin/tickets/999999/close", { method: "POST", cookie: op })).status,
        404
      )
    })
  )

  it.effect("admin API: incoming payment matches a pending top-up by exact amount, once per external id", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cookie = yield* signIn(url, 95008, "bank_user")
      const topup = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "77000" }, cookie })).json
      const body = { amount_uzs: topup.payable_uzs, card_last4: "1234", external_id: "sms-778" }
      const matched = yield* call(url, "/v2/api/admin/payments/incoming", { json: body, headers: admin })
      assert.strictEqual(matched.status, 200, matched.text)
      assert.deepStrictEqual(
        [matched.json.status, matched.json.topup_id, matched.json.duplicate],
        ["matched", topup.topup.topup_id, false]
      )
      const again = yield* call(url, "/v2/api/admin/payments/incoming", { json: body, headers: admin })
      assert.strictEqual(again.json.duplicate, true)
      assert.strictEqual((yield* call(url, "/v2/balance", { cookie })).json.balance_uzs, topup.payable_uzs)
      const stray = yield* call(url, "/v2/api/admin/payments/incoming", {
        json: { amount_uzs: 1234567, external_id: "sms-779" },
        headers: admin
      })
      assert.strictEqual(stray.json.status, "unmatched")
      const markMissing = yield* call(url, "/v2/api/admin/topups/999999/mark-paid", { method: "POST", headers: admin })
      assert.strictEqual(markMissing.status, 404)
    })
  )

  it.effect("healthz answers 200 while the database answers", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const answer = yield* call(url, "/healthz")
      assert.deepStrictEqual([answer.status, answer.json], [200, { status: "ok" }])
    })
  )
})
