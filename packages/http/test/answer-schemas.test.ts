/**
 * The served /v2 document says exactly what the server answers: every operation is called on a real
 * server over PostgreSQL, its success and error answers checked against the document's schemas with
 * every object closed (a field the document does not declare fails, as does a missing required one),
 * and no operation is left unchecked.
 */
import { assert, layer } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import type { OrderId } from "@resale/core/ids.ts"
import { Orders } from "@resale/core/ports/Orders.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect, Layer } from "effect"
import { afterAll } from "vitest"
import { DatabasePing } from "../src/server/HttpApp.ts"
import {
  adminSignIn,
  type Call,
  call,
  callbackPath,
  loginPage,
  PNG,
  signedLogin,
  signIn,
  TEST_ADMIN_TOKEN,
  TEST_BOT_TOKEN
} from "./Client.ts"
import { makeContractCheck } from "./ContractCheck.ts"
import { startFakeTelegram } from "./FakeTelegram.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

const telegram = await startFakeTelegram()
afterAll(() => telegram.close())

const admin = { "x-admin-token": TEST_ADMIN_TOKEN }
const html = { accept: "text/html" }

// The server and the core services over one database: the operators' queue needs orders no API call makes.
const Store = IsolatedPostgres.layerStore
const World = Layer.mergeAll(
  makeTestServer(Store, { telegramApiUrl: telegram.url, webhooksAllowLoopback: true }, DatabasePing.layer as never),
  CoreServices.pipe(Layer.provideMerge(Store))
)

/** Puts an order in the operators' queue, as the worker does when its delivery stays unknown. */
const needsAttention = (orderId: number) =>
  Effect.gen(function* () {
    const now = new Date()
    yield* (yield* Orders)
      .transition(
        orderId as OrderId,
        ["queued"],
        "needs_attention",
        {
          unknownSince: now,
          unknownAttempts: 8,
          lastError: "paid; Fragment has not confirmed delivery",
          evidence: { txHash: "contract-tx", ref: "CONTRACTREF", chainState: "unknown", answers: ["pending"] }
        },
        now
      )
      .pipe(Effect.orDie)
  })

layer(World, {
  timeout: "120 seconds",
  excludeTestServices: true
})("every /v2 answer against the served document", (it) => {
  it.effect(
    "success and error answers of every operation match their schemas",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const doc = (yield* call(url, "/v2/openapi.json")).json
        const contract = makeContractCheck(doc)
        /** Calls `path` and checks the answer as one of `operation`'s. */
        const at = (operation: string, path: string, options: Call = {}) =>
          Effect.map(call(url, path, options), (answer) => contract.check(operation, answer))
        const ok = (operation: string, path: string, options: Call = {}) =>
          Effect.gen(function* () {
            const answer = yield* at(operation, path, options)
            assert.isBelow(answer.status, 400, `${operation}: ${answer.text}`)
            return answer
          })

        // Public.
        yield* ok("GET /v2/", "/v2/")
        yield* ok("GET /v2/", "/v2/", { headers: html })
        yield* at("GET /v2/", "/v2/?limit=x")
        yield* ok("GET /v2/api-docs", "/v2/api-docs")
        yield* ok("GET /v2/api-docs", "/v2/api-docs", { headers: html })
        yield* ok("GET /v2/api/pricing", "/v2/api/pricing")
        yield* ok("GET /healthz", "/healthz")
        yield* ok("GET /v2/admin/login", "/v2/admin/login")
        yield* ok("GET /v2/logout", "/v2/logout")
        yield* ok("GET /v2/admin/logout", "/v2/admin/logout")
        yield* at("GET /v2/auth/messenger/callback", "/v2/auth/messenger/callback?id=1&hash=00")
        const login = yield* loginPage(url)
        const fields = { id: "96002", first_name: "Callback", username: "callback_user" }
        const signed = signedLogin(TEST_BOT_TOKEN, { ...fields, auth_date: String(Math.floor(Date.now() / 1000)) })
        yield* ok("GET /v2/auth/messenger/callback", callbackPath(login.callback, signed), { cookie: login.cookie })
        // A body on a read is refused before routing: the documented 413 of every operation.
        const oversized = { method: "GET", body: "x".repeat(2_000_000) }
        for (const path of ["/v2/", "/v2/logout", "/v2/api-docs", "/v2/admin/login", "/v2/admin/logout"])
          yield* at(`GET ${path}`, path, oversized)
        yield* at("GET /v2/api/pricing", "/v2/api/pricing", oversized)
        yield* at("GET /v2/auth/sandbox", "/v2/auth/sandbox", oversized)
        yield* at("GET /v2/auth/sandbox", "/v2/auth/sandbox")
        yield* at("POST /v2/admin/login", "/v2/admin/login", { form: { token: "wrong" } })
        yield* ok("POST /v2/admin/login", "/v2/admin/login", { form: { token: TEST_ADMIN_TOKEN } })
        const botHeaders = { "x-telegram-bot-api-secret-token": "test-webhook-header-secret" }
        const update = { update_id: 501, message: { message_id: 1, chat: { id: 555001, type: "private" }, text: "/x" } }
        yield* ok("POST /v2/bot/webhook/{secret}", "/v2/bot/webhook/test-webhook-secret", {
          json: update,
          headers: botHeaders
        })
        yield* at("POST /v2/bot/webhook/{secret}", "/v2/bot/webhook/nope", { json: update, headers: botHeaders })

        // A signed-in user.
        const cookie = yield* signIn(url, 96001, "contract_user")
        const op = yield* adminSignIn(url)
        const signedOut = [
          ["GET /v2/dashboard", "/v2/dashboard"],
          ["GET /v2/balance", "/v2/balance"],
          ["GET /v2/balance/topup-status", "/v2/balance/topup-status"],
          ["GET /v2/orders", "/v2/orders"],
          ["GET /v2/orders/list", "/v2/orders/list"],
          ["GET /v2/gifts", "/v2/gifts"],
          ["GET /v2/tickets", "/v2/tickets"],
          ["GET /v2/api-key/webhooks", "/v2/api-key/webhooks"],
          ["GET /v2/admin", "/v2/admin"],
          ["GET /v2/admin/status", "/v2/admin/status"],
          ["GET /v2/admin/topups", "/v2/admin/topups"],
          ["GET /v2/admin/orders", "/v2/admin/orders"],
          ["GET /v2/admin/tickets", "/v2/admin/tickets"]
        ] as const
        for (const [operation, path] of signedOut) yield* at(operation, path)
        for (const [operation, path] of signedOut)
          yield* ok(operation, path, { cookie: operation.includes("/admin") ? op : cookie })
        for (const path of ["/v2/dashboard", "/v2/orders", "/v2/gifts", "/v2/tickets"])
          yield* ok(`GET ${path}`, path, { cookie, headers: html })

        const key = (yield* ok("POST /v2/api-key/rotate", "/v2/api-key/rotate", { method: "POST", cookie })).json
          .api_key as string
        yield* at("POST /v2/api-key/rotate", "/v2/api-key/rotate", { method: "POST" })
        const api = { "x-api-key": key }

        // Top-ups: created, cancelled, a receipt, approved and rejected by the operator, paid by the admin API.
        const created = (yield* ok("POST /v2/balance/top-up", "/v2/balance/top-up", {
          form: { amount_uzs: "400000" },
          cookie
        })).json
        yield* at("POST /v2/balance/top-up", "/v2/balance/top-up", { form: { amount_uzs: "1" }, cookie })
        yield* at("POST /v2/balance/top-up", "/v2/balance/top-up", { form: { amount_uzs: "x" }, cookie })
        const spare = (yield* ok("POST /v2/balance/top-up", "/v2/balance/top-up", {
          form: { amount_uzs: "11000" },
          cookie
        })).json.topup
        yield* ok("POST /v2/balance/topup/{topup_id}/cancel", `/v2/balance/topup/${spare.topup_id}/cancel`, {
          method: "POST",
          cookie
        })
        yield* at("POST /v2/balance/topup/{topup_id}/cancel", `/v2/balance/topup/${spare.topup_id}/cancel`, {
          method: "POST",
          cookie
        })
        const receipt = (amount: string) => {
          const form = new FormData()
          form.set("amount_uzs", amount)
          form.set("receipt", new Blob([PNG], { type: "image/png" }), "r.png")
          return form
        }
        const reviewed = (yield* ok("POST /v2/balance/top-up/receipt", "/v2/balance/top-up/receipt", {
          body: receipt("25000"),
          cookie
        })).json
        yield* at("POST /v2/balance/top-up/receipt", "/v2/balance/top-up/receipt", { body: receipt("1"), cookie })
        yield* ok("GET /v2/receipts/{topup_id}", `/v2/receipts/${reviewed.topup_id}`, { cookie })
        yield* at("GET /v2/receipts/{topup_id}", "/v2/receipts/999999", { cookie })
        yield* ok("GET /v2/admin/topups", "/v2/admin/topups", { cookie: op, headers: html })
        yield* ok("POST /v2/admin/topups/{topup_id}/approve", `/v2/admin/topups/${reviewed.topup_id}/approve`, {
          form: { admin_note: "seen" },
          cookie: op
        })
        yield* at("POST /v2/admin/topups/{topup_id}/approve", `/v2/admin/topups/${reviewed.topup_id}/approve`, {
          form: {},
          cookie: op
        })
        const second = (yield* ok("POST /v2/balance/top-up/receipt", "/v2/balance/top-up/receipt", {
          body: receipt("26000"),
          cookie
        })).json
        yield* ok("POST /v2/admin/topups/{topup_id}/reject", `/v2/admin/topups/${second.topup_id}/reject`, {
          form: { admin_note: "another card" },
          cookie: op
        })
        yield* at("POST /v2/admin/topups/{topup_id}/reject", "/v2/admin/topups/999999/reject", { form: {}, cookie: op })
        const topupId = created.topup.topup_id as number
        yield* at("POST /v2/api/admin/topups/{topup_id}/mark-paid", `/v2/api/admin/topups/${topupId}/mark-paid`, {
          method: "POST"
        })
        yield* ok("POST /v2/api/admin/topups/{topup_id}/mark-paid", `/v2/api/admin/topups/${topupId}/mark-paid`, {
          method: "POST",
          headers: admin
        })
        yield* at("POST /v2/api/admin/topups/{topup_id}/mark-paid", "/v2/api/admin/topups/999999/mark-paid", {
          method: "POST",
          headers: admin
        })
        const pending = (yield* ok("POST /v2/balance/top-up", "/v2/balance/top-up", {
          form: { amount_uzs: "12000" },
          cookie
        })).json
        const payment = { amount_uzs: pending.payable_uzs, card_last4: "1234", external_id: "contract-1" }
        yield* ok("POST /v2/api/admin/payments/incoming", "/v2/api/admin/payments/incoming", {
          json: payment,
          headers: admin
        })
        yield* at("POST /v2/api/admin/payments/incoming", "/v2/api/admin/payments/incoming", {
          json: { amount_uzs: -1 },
          headers: admin
        })
        yield* at("POST /v2/api/admin/payments/incoming", "/v2/api/admin/payments/incoming", { json: payment })

        // The API-key API.
        yield* at("GET /v2/api/balance", "/v2/api/balance")
        yield* ok("GET /v2/api/balance", "/v2/api/balance", { headers: api })
        const stars = (yield* ok("POST /v2/api/stars/buy", "/v2/api/stars/buy", {
          json: { username: "friend", amount: 50 },
          headers: api
        })).json.order
        yield* at("POST /v2/api/stars/buy", "/v2/api/stars/buy", {
          json: { username: "friend", amount: 10 },
          headers: api
        })
        yield* at("POST /v2/api/stars/buy", "/v2/api/stars/buy", { json: { username: "friend" }, headers: api })
        yield* at("POST /v2/api/stars/buy", "/v2/api/stars/buy", {
          json: { username: "friend", amount: 900_000 },
          headers: api
        })
        const premium = (yield* ok("POST /v2/api/premium/buy", "/v2/api/premium/buy", {
          json: { username: "friend", duration: 3 },
          headers: api
        })).json.order
        yield* at("POST /v2/api/premium/buy", "/v2/api/premium/buy", {
          json: { username: "friend", duration: 4 },
          headers: api
        })
        const gifts = (yield* ok("GET /v2/api/gifts", "/v2/api/gifts", { headers: api })).json.gifts
        yield* at("GET /v2/api/gifts", "/v2/api/gifts")
        yield* ok("POST /v2/api/gift/buy", "/v2/api/gift/buy", {
          json: { username: "friend", gift_id: gifts[0].gift_id },
          headers: api
        })
        yield* at("POST /v2/api/gift/buy", "/v2/api/gift/buy", {
          json: { username: "friend", gift_id: "1" },
          headers: api
        })
        yield* ok("GET /v2/api/orders/{order_id}", `/v2/api/orders/${stars.order_id}`, { headers: api })
        yield* at("GET /v2/api/orders/{order_id}", "/v2/api/orders/99999999", { headers: api })
        yield* at("GET /v2/api/orders/{order_id}", "/v2/api/orders/abc", { headers: api })
        yield* ok("GET /v2/api/orders", "/v2/api/orders?limit=2", { headers: api })
        yield* at("GET /v2/api/orders", "/v2/api/orders?limit=101", { headers: api })
        yield* ok("POST /v2/api/topups", "/v2/api/topups", {
          json: { amount_uzs: 13000 },
          headers: { ...api, "idempotency-key": "contract-topup" }
        })
        yield* at("POST /v2/api/topups", "/v2/api/topups", {
          json: { amount_uzs: 14000 },
          headers: { ...api, "idempotency-key": "contract-topup" }
        })
        yield* ok("GET /v2/api/topups", "/v2/api/topups?limit=1", { headers: api })
        yield* at("GET /v2/api/topups", "/v2/api/topups?status=nope", { headers: api })
        yield* ok("GET /v2/api/topups/{topup_id}", `/v2/api/topups/${topupId}`, { headers: api })
        yield* at("GET /v2/api/topups/{topup_id}", "/v2/api/topups/999999", { headers: api })
        yield* ok("POST /v2/api/getInfo", "/v2/api/getInfo", { json: { username: "durov" }, headers: api })
        yield* at("POST /v2/api/getInfo", "/v2/api/getInfo", { json: {}, headers: api })

        // Webhooks, through the key and the signed-in page.
        const hook = (yield* ok("POST /v2/api/webhooks", "/v2/api/webhooks", {
          json: { url: "http://127.0.0.1:9/hook", events: ["order.failed"] },
          headers: api
        })).json
        yield* at("POST /v2/api/webhooks", "/v2/api/webhooks", { json: { url: "ftp://x" }, headers: api })
        yield* ok("GET /v2/api/webhooks", "/v2/api/webhooks", { headers: api })
        yield* at("GET /v2/api/webhooks", "/v2/api/webhooks", { headers: { "x-api-key": "rk_nope" } })
        yield* ok("POST /v2/api/webhooks/{webhook_id}/rotate-secret", `/v2/api/webhooks/${hook.id}/rotate-secret`, {
          method: "POST",
          headers: api
        })
        yield* at("POST /v2/api/webhooks/{webhook_id}/rotate-secret", "/v2/api/webhooks/999999/rotate-secret", {
          method: "POST",
          headers: api
        })
        yield* ok("POST /v2/api/webhooks/{webhook_id}/test", `/v2/api/webhooks/${hook.id}/test`, {
          method: "POST",
          headers: api
        })
        yield* at("POST /v2/api/webhooks/{webhook_id}/test", "/v2/api/webhooks/999999/test", {
          method: "POST",
          headers: api
        })
        yield* ok("GET /v2/api/webhooks/{webhook_id}/deliveries", `/v2/api/webhooks/${hook.id}/deliveries`, {
          headers: api
        })
        yield* at("GET /v2/api/webhooks/{webhook_id}/deliveries", "/v2/api/webhooks/0/deliveries", { headers: api })
        yield* ok("GET /v2/api-key/webhooks", "/v2/api-key/webhooks", { cookie })
        yield* ok("DELETE /v2/api/webhooks/{webhook_id}", `/v2/api/webhooks/${hook.id}`, {
          method: "DELETE",
          headers: api
        })
        yield* at("DELETE /v2/api/webhooks/{webhook_id}", `/v2/api/webhooks/${hook.id}`, {
          method: "DELETE",
          headers: api
        })
        const other = (yield* ok("POST /v2/api/webhooks", "/v2/api/webhooks", {
          json: { url: "http://127.0.0.1:9/other" },
          headers: api
        })).json
        yield* ok("POST /v2/api-key/webhooks/{webhook_id}/delete", `/v2/api-key/webhooks/${other.id}/delete`, {
          method: "POST",
          cookie
        })
        yield* at("POST /v2/api-key/webhooks/{webhook_id}/delete", `/v2/api-key/webhooks/${other.id}/delete`, {
          method: "POST",
          cookie
        })

        // Signed-in pages' operations.
        yield* ok("POST /v2/gifts/buy", "/v2/gifts/buy", {
          form: { username: "friend", gift_id: gifts[0].gift_id },
          cookie
        })
        yield* at("POST /v2/gifts/buy", "/v2/gifts/buy", { form: { username: "friend", gift_id: "1" }, cookie })
        yield* ok("GET /v2/orders/list", "/v2/orders/list?offset=1&limit=2", { cookie })
        yield* ok("POST /v2/api-docs/getinfo-upgrade", "/v2/api-docs/getinfo-upgrade", { form: { tier: "1" }, cookie })
        yield* at("POST /v2/api-docs/getinfo-upgrade", "/v2/api-docs/getinfo-upgrade", { form: { tier: "7" }, cookie })
        const ticket = (yield* ok("POST /v2/tickets/new", "/v2/tickets/new", {
          form: { subject: "Stars not received", body: "Where are they?" },
          cookie
        })).json.ticket
        yield* at("POST /v2/tickets/new", "/v2/tickets/new", { form: { subject: "" }, cookie })
        const id = ticket.ticket_id as number
        yield* ok("GET /v2/tickets/{ticket_id}", `/v2/tickets/${id}`, { cookie })
        yield* ok("GET /v2/tickets/{ticket_id}", `/v2/tickets/${id}`, { cookie, headers: html })
        yield* at("GET /v2/tickets/{ticket_id}", "/v2/tickets/999999", { cookie })
        yield* ok("POST /v2/tickets/{ticket_id}/reply", `/v2/tickets/${id}/reply`, {
          form: { body: "Any news?" },
          cookie
        })
        yield* at("POST /v2/tickets/{ticket_id}/reply", "/v2/tickets/999999/reply", { form: { body: "x" }, cookie })
        yield* ok("GET /v2/tickets/{ticket_id}/poll", `/v2/tickets/${id}/poll?after=0`, { cookie })
        yield* at("GET /v2/tickets/{ticket_id}/poll", "/v2/tickets/999999/poll", { cookie })
        yield* ok("GET /v2/admin/tickets", "/v2/admin/tickets", { cookie: op, headers: html })
        yield* ok("GET /v2/admin/tickets/{ticket_id}/poll", `/v2/admin/tickets/${id}/poll`, { cookie: op })
        yield* at("GET /v2/admin/tickets/{ticket_id}/poll", `/v2/admin/tickets/${id}/poll`, { cookie })
        yield* ok("POST /v2/admin/tickets/{ticket_id}/reply", `/v2/admin/tickets/${id}/reply`, {
          form: { body: "Sent now" },
          cookie: op
        })
        yield* at("POST /v2/admin/tickets/{ticket_id}/reply", `/v2/admin/tickets/${id}/reply`, { form: {}, cookie: op })
        yield* ok("POST /v2/admin/tickets/{ticket_id}/close", `/v2/admin/tickets/${id}/close`, {
          method: "POST",
          cookie: op
        })
        yield* at("POST /v2/admin/tickets/{ticket_id}/close", "/v2/admin/tickets/999999/close", {
          method: "POST",
          cookie: op
        })
        yield* ok("POST /v2/admin/tickets/{ticket_id}/reopen", `/v2/admin/tickets/${id}/reopen`, {
          method: "POST",
          cookie: op
        })
        yield* at("POST /v2/admin/tickets/{ticket_id}/reopen", "/v2/admin/tickets/999999/reopen", {
          method: "POST",
          cookie: op
        })
        const keys = {
          p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
          auth: "tBHItJI5svbpez7KI4CCXg"
        }
        yield* ok("POST /v2/push/subscribe", "/v2/push/subscribe", {
          json: { endpoint: "https://fcm.googleapis.com/fcm/send/contract", keys, expirationTime: null },
          cookie
        })
        yield* at("POST /v2/push/subscribe", "/v2/push/subscribe", { json: { keys }, cookie })

        // The operator's pages and order operations.
        yield* ok("GET /v2/admin", "/v2/admin", { cookie: op, headers: html })
        yield* ok("GET /v2/admin/orders", "/v2/admin/orders", { cookie: op, headers: html })
        yield* ok("POST /v2/admin/pricing", "/v2/admin/pricing", {
          form: {
            star_price_uzs: "230",
            premium_3_month_uzs: "180000",
            premium_6_month_uzs: "240000",
            premium_12_month_uzs: "430000"
          },
          cookie: op
        })
        yield* at("POST /v2/admin/pricing", "/v2/admin/pricing", { form: { star_price_uzs: "0" }, cookie: op })
        const orderPath = (action: string, orderId: number | string) => `/v2/admin/orders/${orderId}/${action}`
        yield* at("POST /v2/admin/orders/{order_id}/retry", orderPath("retry", stars.order_id), {
          method: "POST",
          cookie: op
        })
        yield* at("POST /v2/admin/orders/{order_id}/recheck", orderPath("recheck", stars.order_id), {
          method: "POST",
          cookie: op
        })
        yield* at("POST /v2/admin/orders/{order_id}/refund", orderPath("refund", stars.order_id), {
          form: { note: "x" },
          cookie: op
        })
        yield* ok("POST /v2/admin/orders/{order_id}/mark-done", orderPath("mark-done", stars.order_id), {
          form: { tx_id: "manual-1" },
          cookie: op
        })
        yield* at("POST /v2/admin/orders/{order_id}/mark-done", orderPath("mark-done", 999999), {
          form: { tx_id: "manual-2" },
          cookie: op
        })

        // The operators' queue: recheck, refund (a failed order with its code), retry.
        yield* needsAttention(premium.order_id)
        yield* ok("GET /v2/admin/orders", "/v2/admin/orders", { cookie: op })
        yield* ok("POST /v2/admin/orders/{order_id}/recheck", orderPath("recheck", premium.order_id), {
          method: "POST",
          cookie: op
        })
        yield* needsAttention(premium.order_id)
        yield* ok("POST /v2/admin/orders/{order_id}/refund", orderPath("refund", premium.order_id), {
          form: { note: "Recipient not found on Telegram" },
          cookie: op
        })
        const failed = yield* ok("GET /v2/api/orders/{order_id}", `/v2/api/orders/${premium.order_id}`, {
          headers: api
        })
        assert.strictEqual(failed.json.error_code, "refunded_by_operator", failed.text)
        yield* ok("GET /v2/api/orders", "/v2/api/orders", { headers: api })
        yield* ok("GET /v2/orders/list", "/v2/orders/list", { cookie })
        yield* ok("GET /v2/dashboard", "/v2/dashboard", { cookie })
        yield* ok("POST /v2/admin/orders/{order_id}/retry", orderPath("retry", premium.order_id), {
          method: "POST",
          cookie: op
        })

        assert.deepStrictEqual(contract.problems, [])
        // /healthz errs only while the database is down (database-outage.test.ts stops it).
        assert.deepStrictEqual(contract.uncovered(), { success: [], error: ["GET /healthz"] })
      }),
    { timeout: 120_000 } // some 150 requests, on a loaded machine
  )

  it.effect("the check fails on a missing required field, an undeclared field and an undocumented status", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const contract = makeContractCheck((yield* call(url, "/v2/openapi.json")).json)
      const answer = (status: number, json: unknown) => ({
        status,
        headers: { "content-type": "application/json" },
        json,
        text: JSON.stringify(json)
      })
      const pricing = (yield* call(url, "/v2/api/pricing")).json
      contract.check("GET /v2/api/pricing", answer(200, pricing))
      assert.deepStrictEqual(contract.problems, [])
      const { star_price_uzs: _, ...missing } = pricing
      contract.check("GET /v2/api/pricing", answer(200, missing))
      contract.check("GET /v2/api/pricing", answer(200, { ...pricing, extra: 1 }))
      contract.check("GET /v2/api/pricing", answer(418, {}))
      assert.strictEqual(contract.problems.length, 3, contract.problems.join("\n"))
      assert.include(contract.problems[0], "star_price_uzs")
      assert.include(contract.problems[1], "additional properties")
      assert.include(contract.problems[2], "418")
    })
  )
})
