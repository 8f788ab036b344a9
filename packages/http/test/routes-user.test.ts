import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { afterAll } from "vitest"
import { adminSignIn, call, PNG, signIn, TEST_BOT_TOKEN } from "./Client.ts"
import { startFakeTelegram } from "./FakeTelegram.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

const telegram = await startFakeTelegram()
afterAll(() => telegram.close())

/** Success paths (and the rule-breaking answers) of the signed-in user's routes. */
layer(pgTestServer({ telegramApiUrl: telegram.url }), { timeout: "60 seconds", excludeTestServices: true })(
  "user routes",
  (it) => {
    it.effect("home, dashboard and pages answer JSON by default and HTML for browsers", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const home = yield* call(url, "/v2/")
        assert.strictEqual(home.json.sandbox, true)
        assert.strictEqual(home.json.signed_in, false)
        const cookie = yield* signIn(url, 90001, "pages_user")
        for (const path of ["/v2/dashboard", "/v2/orders", "/v2/gifts", "/v2/tickets", "/v2/api-docs"]) {
          const json = yield* call(url, path, { cookie })
          assert.strictEqual(json.status, 200, path)
          assert.match(String(json.headers["content-type"]), /application\/json/, path)
          const html = yield* call(url, path, { cookie, headers: { accept: "text/html,application/xhtml+xml" } })
          assert.strictEqual(html.status, 200, path)
          assert.match(String(html.headers["content-type"]), /text\/html/, path)
          // The web UI's page, with the sandbox banner (the bare pages this once checked are gone).
          assert.match(html.text, /<div class="sandbox" role="note"><strong>Sandbox<\/strong>/, path)
        }
        const dash = (yield* call(url, "/v2/dashboard", { cookie })).json
        assert.strictEqual(dash.user.username, "pages_user")
        assert.strictEqual(dash.balance_uzs, 0)
      })
    )

    it.effect("the API reference renders the OpenAPI document offline (no external script or stylesheet)", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const page = yield* call(url, "/v2/api-docs", { headers: { accept: "text/html" } })
        assert.match(page.text, /POST \/v2\/api\/stars\/buy/)
        assert.match(page.text, /StarsOrderRequest/)
        // The web UI's own script and stylesheet come from this server; nothing from elsewhere.
        assert.notMatch(page.text, /<script[^>]+src="(https?:)?\/\/|<link[^>]+href="(https?:)?\/\//)
      })
    )

    it.effect(
      "top-up: create answers the payable amount and expiry, status poll, cancel; Idempotency-Key replays",
      () =>
        Effect.gen(function* () {
          const { url } = yield* TestServer
          const cookie = yield* signIn(url, 90002, "topup_user")
          const created = yield* call(url, "/v2/balance/top-up", {
            form: { amount_uzs: "50000" },
            cookie,
            headers: { "idempotency-key": "t-1" }
          })
          assert.strictEqual(created.status, 200, created.text)
          assert.isAtLeast(created.json.payable_uzs, 50000)
          assert.isBelow(created.json.payable_uzs, 51000)
          assert.isTrue(Date.parse(created.json.expires_at) > Date.now())
          const again = yield* call(url, "/v2/balance/top-up", {
            form: { amount_uzs: "50000" },
            cookie,
            headers: { "idempotency-key": "t-1" }
          })
          assert.deepStrictEqual(again.json, created.json)
          const other = yield* call(url, "/v2/balance/top-up", {
            form: { amount_uzs: "60000" },
            cookie,
            headers: { "idempotency-key": "t-1" }
          })
          assert.strictEqual(other.status, 409)
          const second = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "50000" }, cookie })).json
          assert.notStrictEqual(
            second.payable_uzs,
            created.json.payable_uzs,
            "payable amounts are unique among pending top-ups"
          )
          const status = (yield* call(url, "/v2/balance/topup-status", { cookie })).json
          assert.strictEqual(status.topups.length, 2)
          const cancelled = yield* call(url, `/v2/balance/topup/${created.json.topup.topup_id}/cancel`, {
            method: "POST",
            cookie
          })
          assert.strictEqual(cancelled.json.status, "cancelled")
          const twice = yield* call(url, `/v2/balance/topup/${created.json.topup.topup_id}/cancel`, {
            method: "POST",
            cookie
          })
          assert.strictEqual(twice.status, 409)
          const tooSmall = yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "1" }, cookie })
          assert.strictEqual(tooSmall.status, 400)
        })
    )

    it.effect("receipts: PNG/JPEG/WebP/PDF by content up to 5 MB; anything else 400", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const cookie = yield* signIn(url, 90003, "receipt_user")
        const upload = (bytes: Uint8Array, name: string, type = "application/octet-stream") => {
          const form = new FormData()
          form.set("amount_uzs", "25000")
          form.set("receipt", new Blob([bytes], { type }), name)
          return call(url, "/v2/balance/top-up/receipt", { body: form, cookie })
        }
        const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4])
        const webp = new Uint8Array([...Buffer.from("RIFF"), 0, 0, 0, 0, ...Buffer.from("WEBPVP8 ")])
        const pdf = new Uint8Array(Buffer.from("%PDF-1.7\n%test"))
        for (const [bytes, name, type] of [
          [PNG, "a.png", "image/png"],
          [jpeg, "b.bin", "image/jpeg"],
          [webp, "c.dat", "image/webp"],
          [pdf, "d", "application/pdf"]
        ] as const) {
          const answer = yield* upload(bytes, name)
          assert.strictEqual(answer.status, 200, `${name}: ${answer.text}`)
          assert.strictEqual(answer.json.status, "review")
          const file = yield* call(url, `/v2/receipts/${answer.json.topup_id}`, { cookie })
          assert.strictEqual(file.headers["content-type"], type)
          // Withdrawn again: an account has at most three receipts under review at once.
          yield* call(url, `/v2/balance/topup/${answer.json.topup_id}/cancel`, { method: "POST", cookie })
        }
        const text = yield* upload(new Uint8Array(Buffer.from("just text")), "fake.png", "image/png")
        assert.strictEqual(text.status, 400)
        const big = new Uint8Array(5 * 1024 * 1024 + 10)
        big.set(PNG)
        const large = yield* upload(big, "big.png")
        assert.strictEqual(large.status, 400)
      })
    )

    it.effect("orders: gifts page and web gift buy (409 on a short balance), paginated list", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const cookie = yield* signIn(url, 90004, "gift_user")
        const gifts = (yield* call(url, "/v2/gifts", { cookie })).json.gifts
        assert.isAbove(gifts.length, 0)
        const gift = gifts[0]
        const short = yield* call(url, "/v2/gifts/buy", { form: { username: "friend", gift_id: gift.gift_id }, cookie })
        assert.strictEqual(short.status, 409)
        const op = yield* adminSignIn(url)
        const topup = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "200000" }, cookie })).json.topup
        yield* call(url, `/v2/admin/topups/${topup.topup_id}/approve`, { form: {}, cookie: op })
        const bought = yield* call(url, "/v2/gifts/buy", {
          form: { username: "friend", gift_id: gift.gift_id, comment: "hi" },
          cookie
        })
        assert.strictEqual(bought.status, 200, bought.text)
        assert.strictEqual(bought.json.order.kind, "gift")
        assert.strictEqual(bought.json.order.status, "queued")
        assert.strictEqual(bought.json.balance_uzs, topup.payable_uzs - gift.price_uzs)
        const unknown = yield* call(url, "/v2/gifts/buy", { form: { username: "friend", gift_id: "1" }, cookie })
        assert.strictEqual(unknown.status, 404)
        for (let i = 0; i < 2; i++)
          yield* call(url, "/v2/gifts/buy", { form: { username: "friend", gift_id: gift.gift_id }, cookie })
        const page = (yield* call(url, "/v2/orders/list?offset=1&limit=2", { cookie })).json
        assert.strictEqual(page.total, 3)
        assert.strictEqual(page.orders.length, 2)
        assert.deepStrictEqual([page.offset, page.limit], [1, 2])
      })
    )

    it.effect("info-lookup tier upgrade is paid from the balance; an unknown tier is 400", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const cookie = yield* signIn(url, 90005, "tier_user")
        assert.strictEqual(
          (yield* call(url, "/v2/api-docs/getinfo-upgrade", { form: { tier: "1" }, cookie })).status,
          409
        )
        const op = yield* adminSignIn(url)
        const topup = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "60000" }, cookie })).json.topup
        yield* call(url, `/v2/admin/topups/${topup.topup_id}/approve`, { form: {}, cookie: op })
        const up = yield* call(url, "/v2/api-docs/getinfo-upgrade", { form: { tier: "1" }, cookie })
        assert.strictEqual(up.status, 200, up.text)
        assert.strictEqual(up.json.tier, 1)
        assert.strictEqual(up.json.balance_uzs, topup.payable_uzs - up.json.price_uzs)
        assert.strictEqual(
          (yield* call(url, "/v2/api-docs/getinfo-upgrade", { form: { tier: "7" }, cookie })).status,
          400
        )
      })
    )

    it.effect("tickets: create, list, detail, poll after the cursor, reply", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const cookie = yield* signIn(url, 90006, "ticket_user")
        const created = yield* call(url, "/v2/tickets/new", {
          form: { subject: "Stars missing", body: "Ordered 50" },
          cookie
        })
        assert.strictEqual(created.status, 200, created.text)
        const id = created.json.ticket.ticket_id
        assert.strictEqual(created.json.messages.length, 1)
        const cursor = created.json.messages[0].message_id
        assert.strictEqual((yield* call(url, "/v2/tickets", { cookie })).json.total, 1)
        const reply = yield* call(url, `/v2/tickets/${id}/reply`, { form: { body: "Any news?" }, cookie })
        assert.strictEqual(reply.json.author, "user")
        const poll = (yield* call(url, `/v2/tickets/${id}/poll?after=${cursor}`, { cookie })).json
        assert.deepStrictEqual(
          poll.messages.map((m: { body: string }) => m.body),
          ["Any news?"]
        )
        assert.strictEqual(poll.cursor, reply.json.message_id)
        const empty = (yield* call(url, `/v2/tickets/${id}/poll?after=${poll.cursor}`, { cookie })).json
        assert.deepStrictEqual([empty.messages, empty.cursor], [[], poll.cursor])
        assert.strictEqual((yield* call(url, `/v2/tickets/${id}`, { cookie })).json.messages.length, 2)
        assert.strictEqual((yield* call(url, "/v2/tickets/999999", { cookie })).status, 404)
      })
    )

    it.effect(
      "push subscribe: a push service's endpoint and valid keys are stored; anything else 400, another account's endpoint 409",
      () =>
        Effect.gen(function* () {
          const { url } = yield* TestServer
          const cookie = yield* signIn(url, 90007, "push_user")
          const keys = {
            p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
            auth: "tBHItJI5svbpez7KI4CCXg"
          }
          const endpoint = "https://fcm.googleapis.com/fcm/send/ep-1"
          const ok = yield* call(url, "/v2/push/subscribe", { json: { endpoint, keys, expirationTime: null }, cookie })
          assert.deepStrictEqual([ok.status, ok.json], [200, { ok: true }])
          const noKeys = yield* call(url, "/v2/push/subscribe", {
            json: { endpoint: "https://fcm.googleapis.com/fcm/send/ep-2" },
            cookie
          })
          assert.strictEqual(noKeys.status, 400)
          const noEndpoint = yield* call(url, "/v2/push/subscribe", { json: { keys }, cookie })
          assert.strictEqual(noEndpoint.status, 400)
          // The review's attack: the worker would POST to any URL. Loopback, metadata, private hosts, plain http: refused.
          for (const target of [
            "http://127.0.0.1:8000/v2/admin",
            "https://169.254.169.254/latest/meta-data/",
            "https://10.0.0.5/x",
            "http://fcm.googleapis.com/fcm/send/x",
            "https://evil.example/fcm.googleapis.com"
          ]) {
            const answer = yield* call(url, "/v2/push/subscribe", { json: { endpoint: target, keys }, cookie })
            assert.deepStrictEqual(
              [answer.status, answer.json.detail],
              [
                400,
                "Push subscription refused: " +
                  (target.startsWith("http:")
                    ? "endpoint must be an https URL"
                    : "endpoint is not a known push service")
              ],
              target
            )
          }
          // Oversized keys (the body limit stops 20 MB ones earlier), a point off the curve, a short auth secret: 400.
          for (const bad of [
            { ...keys, auth: "x".repeat(10_000) },
            { ...keys, p256dh: keys.p256dh.slice(0, -2) + "AA" },
            { ...keys, auth: "c2VjcmV0" }
          ]) {
            const answer = yield* call(url, "/v2/push/subscribe", { json: { endpoint, keys: bad }, cookie })
            assert.strictEqual(answer.status, 400, answer.text)
          }
          // The same endpoint from another account is refused and stays with its owner.
          const mallory = yield* signIn(url, 90008, "push_thief")
          const stolen = yield* call(url, "/v2/push/subscribe", { json: { endpoint, keys }, cookie: mallory })
          assert.deepStrictEqual(
            [stolen.status, stolen.json.detail],
            [409, "Push subscription refused: this push subscription is registered to another account"]
          )
        })
    )

    it.effect(
      "bot webhook: secret path and header (constant-time), each update once, /start links and answers the balance",
      () =>
        Effect.gen(function* () {
          const { url } = yield* TestServer
          const update = (id: number, text: string) => ({
            update_id: id,
            message: {
              message_id: 1,
              date: 0,
              text,
              from: { id: 90100, is_bot: false, first_name: "Eve", username: "eve_bot_user" },
              chat: { id: 555001, type: "private" }
            }
          })
          const headers = { "x-telegram-bot-api-secret-token": "test-webhook-header-secret" }
          const wrongPath = yield* call(url, "/v2/bot/webhook/not-the-secret", { json: update(1, "/start"), headers })
          assert.strictEqual(wrongPath.status, 404)
          const wrongHeader = yield* call(url, "/v2/bot/webhook/test-webhook-secret", {
            json: update(1, "/start"),
            headers: { "x-telegram-bot-api-secret-token": "x" }
          })
          assert.strictEqual(wrongHeader.status, 403)
          // The path secret is in every request's URL: as the header it proves nothing.
          const pathAsHeader = yield* call(url, "/v2/bot/webhook/test-webhook-secret", {
            json: update(2, "/start"),
            headers: { "x-telegram-bot-api-secret-token": "test-webhook-secret" }
          })
          assert.strictEqual(pathAsHeader.status, 403)
          const before = telegram.calls.length
          const first = yield* call(url, "/v2/bot/webhook/test-webhook-secret", {
            json: update(1001, "/start"),
            headers
          })
          assert.deepStrictEqual([first.status, first.json], [200, { ok: true }])
          const again = yield* call(url, "/v2/bot/webhook/test-webhook-secret", {
            json: update(1001, "/start"),
            headers
          })
          assert.strictEqual(again.status, 200)
          const sent = telegram.calls.slice(before)
          assert.strictEqual(sent.length, 1, "a re-delivered update is handled once")
          assert.strictEqual(sent[0]!.path, `/bot${TEST_BOT_TOKEN}/sendMessage`)
          assert.strictEqual(sent[0]!.body.chat_id, 555001)
          assert.match(sent[0]!.body.text, /Balance: 0 UZS/)
          // The chat is now linked to the account of that Telegram user.
          const fields = { id: "90100", username: "eve_bot_user" }
          const cookie = yield* signIn(url, Number(fields.id), fields.username)
          assert.strictEqual((yield* call(url, "/v2/dashboard", { cookie })).json.user.bot_linked, true)
        })
    )
  }
)
