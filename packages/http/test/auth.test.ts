import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import {
  adminSignIn,
  call,
  callbackPath,
  loginPage,
  PNG,
  signedLogin,
  signIn,
  TEST_ADMIN_TOKEN,
  TEST_BOT_TOKEN
} from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

const now = () => String(Math.floor(Date.now() / 1000))

/** Who may do what: anonymous, user A, user B, operator. */
layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })("authorization", (it) => {
  const setup = Effect.gen(function* () {
    const { url } = yield* TestServer
    const a = yield* signIn(url, 81001, "alice")
    const b = yield* signIn(url, 81002, "bob")
    const op = yield* adminSignIn(url)
    const form = new FormData()
    form.set("amount_uzs", "20000")
    form.set("receipt", new Blob([PNG], { type: "image/png" }), "r.png")
    const receiptTopup = (yield* call(url, "/v2/balance/top-up/receipt", { body: form, cookie: a })).json
    const cardTopup = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "30000" }, cookie: a })).json.topup
    const ticket = (yield* call(url, "/v2/tickets/new", {
      form: { subject: "help", body: "where is my order" },
      cookie: a
    })).json.ticket
    return { url, a, b, op, receiptTopup, cardTopup, ticket }
  })

  it.effect("anonymous callers get 401 on every signed-in and operator route", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const routes: Array<[string, string, Record<string, string>?]> = [
        ["GET", "/v2/dashboard"],
        ["GET", "/v2/balance"],
        ["POST", "/v2/balance/top-up", { amount_uzs: "1000" }],
        ["POST", "/v2/balance/topup/1/cancel"],
        ["GET", "/v2/balance/topup-status"],
        ["GET", "/v2/receipts/1"],
        ["GET", "/v2/orders"],
        ["GET", "/v2/orders/list"],
        ["GET", "/v2/gifts"],
        ["POST", "/v2/api-key/rotate"],
        ["GET", "/v2/tickets"],
        ["GET", "/v2/tickets/1"],
        ["GET", "/v2/admin"],
        ["GET", "/v2/admin/topups"],
        ["POST", "/v2/admin/topups/1/approve"],
        ["GET", "/v2/admin/orders"],
        ["GET", "/v2/admin/tickets"],
        ["POST", "/v2/admin/tickets/1/close"],
        ["GET", "/v2/api/balance"],
        ["GET", "/v2/api/orders/1"],
        ["POST", "/v2/api/admin/topups/1/mark-paid"]
      ]
      for (const [method, path, form] of routes) {
        const answer = yield* call(url, path, { method, ...(form ? { form } : {}) })
        assert.strictEqual(answer.status, 401, `${method} ${path}: ${answer.text}`)
        assert.isString(answer.json.detail)
      }
    })
  )

  it.effect("user B cannot see or change user A's top-ups, receipts, orders or tickets", () =>
    Effect.gen(function* () {
      const { a, b, cardTopup, receiptTopup, ticket, url } = yield* setup
      assert.strictEqual((yield* call(url, `/v2/receipts/${receiptTopup.topup_id}`, { cookie: b })).status, 404)
      assert.strictEqual(
        (yield* call(url, `/v2/balance/topup/${cardTopup.topup_id}/cancel`, { method: "POST", cookie: b })).status,
        404
      )
      assert.strictEqual((yield* call(url, `/v2/tickets/${ticket.ticket_id}`, { cookie: b })).status, 404)
      assert.strictEqual((yield* call(url, `/v2/tickets/${ticket.ticket_id}/poll`, { cookie: b })).status, 404)
      assert.strictEqual(
        (yield* call(url, `/v2/tickets/${ticket.ticket_id}/reply`, { form: { body: "hi" }, cookie: b })).status,
        404
      )
      // Nothing of A's shows on B's pages, and B's reply did not land in A's ticket.
      const bDashboard = (yield* call(url, "/v2/dashboard", { cookie: b })).json
      assert.deepStrictEqual([bDashboard.topups, bDashboard.orders], [[], []])
      assert.deepStrictEqual((yield* call(url, "/v2/orders", { cookie: b })).json.orders, [])
      const aDashboard = (yield* call(url, "/v2/dashboard", { cookie: a })).json
      assert.includeMembers(
        aDashboard.topups.map((t: { topup_id: number }) => t.topup_id),
        [receiptTopup.topup_id, cardTopup.topup_id]
      )
      const thread = (yield* call(url, `/v2/tickets/${ticket.ticket_id}`, { cookie: a })).json
      assert.deepStrictEqual(
        thread.messages.map((m: { body: string }) => m.body),
        ["where is my order"]
      )
      const bStatus = (yield* call(url, "/v2/balance/topup-status", { cookie: b })).json
      assert.deepStrictEqual(bStatus.topups, [])
      assert.deepStrictEqual((yield* call(url, "/v2/tickets", { cookie: b })).json.tickets, [])
      // A still sees and controls their own.
      const own = yield* call(url, `/v2/receipts/${receiptTopup.topup_id}`, { cookie: a })
      assert.strictEqual(own.status, 200)
      assert.strictEqual(own.headers["content-type"], "image/png")
      assert.strictEqual((yield* call(url, `/v2/tickets/${ticket.ticket_id}`, { cookie: a })).status, 200)
      const cancelled = yield* call(url, `/v2/balance/topup/${cardTopup.topup_id}/cancel`, {
        method: "POST",
        cookie: a
      })
      assert.strictEqual(cancelled.json.status, "cancelled")
    })
  )

  it.effect("orders are listed to their owner only; B's API key never buys with A's balance", () =>
    Effect.gen(function* () {
      const { a, b, op, url } = yield* setup
      const topup = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "100000" }, cookie: a })).json.topup
      yield* call(url, `/v2/admin/topups/${topup.topup_id}/approve`, { form: {}, cookie: op })
      const keyA = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie: a })).json.api_key
      const keyB = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie: b })).json.api_key
      const bought = yield* call(url, "/v2/api/stars/buy", {
        json: { username: "friend", amount: 50 },
        headers: { "x-api-key": keyA }
      })
      assert.strictEqual(bought.status, 200, bought.text)
      const orderPath = `/v2/api/orders/${bought.json.order.order_id}`
      assert.strictEqual((yield* call(url, orderPath, { headers: { "x-api-key": keyB } })).status, 404)
      assert.strictEqual(
        (yield* call(url, orderPath, { headers: { "x-api-key": keyA } })).json.order_id,
        bought.json.order.order_id
      )
      const listB = (yield* call(url, "/v2/orders/list", { cookie: b })).json
      assert.strictEqual(listB.total, 0)
      const listA = (yield* call(url, "/v2/orders/list", { cookie: a })).json
      assert.isTrue(listA.orders.some((o: { order_id: number }) => o.order_id === bought.json.order.order_id))
      const broke = yield* call(url, "/v2/api/stars/buy", {
        json: { username: "friend", amount: 50 },
        headers: { "x-api-key": keyB }
      })
      assert.strictEqual(broke.status, 409)
      assert.match(broke.json.detail, /Insufficient balance/)
    })
  )

  it.effect("users never reach operator routes; the operator reaches them and reads any receipt", () =>
    Effect.gen(function* () {
      const { a, op, receiptTopup, ticket, url } = yield* setup
      for (const path of ["/v2/admin", "/v2/admin/topups", "/v2/admin/orders", "/v2/admin/tickets"]) {
        assert.strictEqual((yield* call(url, path, { cookie: a })).status, 401, path)
        assert.strictEqual((yield* call(url, path, { cookie: op })).status, 200, path)
      }
      assert.strictEqual(
        (yield* call(url, `/v2/admin/topups/${receiptTopup.topup_id}/approve`, { form: {}, cookie: a })).status,
        401
      )
      assert.strictEqual(
        (yield* call(url, `/v2/admin/tickets/${ticket.ticket_id}/close`, { method: "POST", cookie: a })).status,
        401
      )
      const receipt = yield* call(url, `/v2/receipts/${receiptTopup.topup_id}`, { cookie: op })
      assert.strictEqual(receipt.status, 200)
      // A user's API key is not an admin token.
      const keyA = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie: a })).json.api_key
      const asAdmin = yield* call(url, "/v2/api/admin/payments/incoming", {
        json: { amount_uzs: 1 },
        headers: { "x-admin-token": keyA }
      })
      assert.strictEqual(asAdmin.status, 401)
    })
  )

  it.effect("X-API-Key: missing or wrong is 401; a rotated key replaces the old one", () =>
    Effect.gen(function* () {
      const { a, url } = yield* setup
      const missing = yield* call(url, "/v2/api/balance")
      assert.deepStrictEqual([missing.status, missing.json.detail], [401, "Missing X-API-Key header"])
      const wrong = yield* call(url, "/v2/api/balance", { headers: { "x-api-key": "rk_" + "x".repeat(43) } })
      assert.strictEqual(wrong.status, 401)
      const first = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie: a })).json.api_key
      assert.strictEqual((yield* call(url, "/v2/api/balance", { headers: { "x-api-key": first } })).status, 200)
      const second = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie: a })).json.api_key
      assert.notStrictEqual(first, second)
      assert.strictEqual((yield* call(url, "/v2/api/balance", { headers: { "x-api-key": first } })).status, 401)
      assert.strictEqual((yield* call(url, "/v2/api/balance", { headers: { "x-api-key": second } })).status, 200)
    })
  )

  it.effect("X-Admin-Token: missing or wrong is 401, the right one works", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const body = { json: { amount_uzs: 123457, external_id: "auth-test-1" } }
      assert.strictEqual((yield* call(url, "/v2/api/admin/payments/incoming", body)).status, 401)
      assert.strictEqual(
        (yield* call(url, "/v2/api/admin/payments/incoming", { ...body, headers: { "x-admin-token": "nope" } })).status,
        401
      )
      const ok = yield* call(url, "/v2/api/admin/payments/incoming", {
        ...body,
        headers: { "x-admin-token": TEST_ADMIN_TOKEN }
      })
      assert.strictEqual(ok.status, 200, ok.text)
      assert.strictEqual(ok.json.status, "unmatched")
    })
  )

  it.effect("cookie-authenticated POSTs from another site are refused (Origin check)", () =>
    Effect.gen(function* () {
      const { a, op, url } = yield* setup
      const cross = yield* call(url, "/v2/balance/top-up", {
        form: { amount_uzs: "5000" },
        cookie: a,
        headers: { origin: "https://evil.example" }
      })
      assert.deepStrictEqual([cross.status, cross.json.detail], [403, "Cross-site request refused"])
      const crossAdmin = yield* call(url, "/v2/admin/pricing", {
        form: { star_price_uzs: "1", premium_3_month_uzs: "1", premium_6_month_uzs: "1", premium_12_month_uzs: "1" },
        cookie: op,
        headers: { origin: "https://evil.example" }
      })
      assert.strictEqual(crossAdmin.status, 403)
      // A fresh account: alice holds as many open card top-ups as her cap allows by now (the setup makes one per test).
      const fresh = yield* signIn(url, 81009, "origin_check")
      const same = yield* call(url, "/v2/balance/top-up", {
        form: { amount_uzs: "5000" },
        cookie: fresh,
        headers: { origin: url }
      })
      assert.strictEqual(same.status, 200)
    })
  )

  it.effect("sign-in: a tampered or stale login is 401; the session cookie is HttpOnly, SameSite=Lax, signed", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const fields = signedLogin(TEST_BOT_TOKEN, { id: "81009", username: "carol", auth_date: now() })
      const { callback, cookie: state } = yield* loginPage(url)
      const tampered = yield* call(url, callbackPath(callback, { ...fields, id: "81010" }), { cookie: state })
      assert.strictEqual(tampered.status, 401)
      const stale = signedLogin(TEST_BOT_TOKEN, {
        id: "81009",
        username: "carol",
        auth_date: String(Number(now()) - 90_000)
      })
      const old = yield* call(url, callbackPath(callback, stale), { cookie: state })
      assert.deepStrictEqual([old.status, old.json.detail], [401, "Telegram login data is too old"])
      const good = yield* call(url, callbackPath(callback, fields), { cookie: state })
      assert.strictEqual(good.status, 303)
      assert.strictEqual(good.headers["location"], "/v2/dashboard")
      const setCookie = String(good.headers["set-cookie"])
      assert.match(setCookie, /HttpOnly/)
      assert.match(setCookie, /SameSite=Lax/)
      const cookie = setCookie.split(";")[0]!
      assert.strictEqual((yield* call(url, "/v2/balance", { cookie })).status, 200)
      // A forged signature is refused before any lookup.
      const forged = cookie.replace(/\.[^.]+$/, ".AAAA")
      assert.strictEqual((yield* call(url, "/v2/balance", { cookie: forged })).status, 401)
    })
  )

  it.effect("logout ends the session server-side; a wrong admin token does not sign in", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cookie = yield* signIn(url, 81020, "dave")
      const out = yield* call(url, "/v2/logout", { cookie })
      assert.strictEqual(out.status, 303)
      assert.strictEqual((yield* call(url, "/v2/balance", { cookie })).status, 401)
      const badAdmin = yield* call(url, "/v2/admin/login", { form: { token: "guess" } })
      assert.strictEqual(badAdmin.status, 401)
      const op = yield* adminSignIn(url)
      assert.strictEqual((yield* call(url, "/v2/admin", { cookie: op })).status, 200)
      yield* call(url, "/v2/admin/logout", { cookie: op })
      assert.strictEqual((yield* call(url, "/v2/admin", { cookie: op })).status, 401)
    })
  )
})
