/**
 * Every documented example is a real answer: each example's request is replayed against a real
 * server (production mode, over PostgreSQL) in the state the example describes, and the answer must
 * equal the example; ids, timestamps, request ids and secrets are compared by their shape, everything
 * else by value. An example with no replay fails the test unless it is listed with why it is not.
 */
import { assert, layer } from "@effect/vitest"
import type { OrderId, UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Orders } from "@resale/core/ports/Orders.ts"
import { Effect } from "effect"
import { REQUEST_EXAMPLES, RESPONSE_EXAMPLES, SCHEMA_EXAMPLES } from "../src/api/OpenApiExamples.ts"
import { type Answer, call, PNG, TEST_ADMIN_TOKEN } from "./Client.ts"
import { completedAsDocumented, ExampleWorld as World, setExamplePrices, signInAs } from "./ExampleAccounts.ts"
import { answerDifferences, differences } from "./ExampleMatch.ts"
import { TestServer } from "./TestServer.ts"

/** Examples no replay reaches yet, and why. */
const NOT_REPLAYED: Record<string, string> = {
  Dashboard: "replayed in a world of its own in example-replay-account.test.ts (pending amounts are unique)",
  User: "part of Dashboard, replayed in a world of its own in example-replay-account.test.ts",
  TopupStatus: "replayed in a world of its own in example-replay-account.test.ts",
  ServiceUnavailableEncoded: "replayed with Fragment blocked in example-replay-outage.test.ts",
  Gifts: "replayed over a catalogue of the documented gift in example-replay-gifts.test.ts",
  Gift: "replayed over a catalogue of the documented gift in example-replay-gifts.test.ts",
  AdminHome: "replayed in a world of its own in example-replay-admin.test.ts",
  AdminStatus: "replayed over a planted fleet in a world of its own in example-replay-status.test.ts",
  AdminTopup: "replayed in a world of its own in example-replay-admin.test.ts",
  AdminTopups: "replayed in a world of its own in example-replay-admin.test.ts",
  AdminOrder: "replayed in a world of its own in example-replay-admin.test.ts",
  AdminOrders: "replayed in a world of its own in example-replay-admin.test.ts",
  OrderEvidence: "replayed in a world of its own in example-replay-admin.test.ts",
  WebhookDeliveryLog: "replayed in webhooks.test.ts, after the worker's dispatcher delivered an order.completed"
}

/** As the worker leaves an order whose delivery Fragment never confirmed: in the operators' queue. */
const leftUnconfirmed = (orderId: OrderId) =>
  Effect.gen(function* () {
    const now = new Date()
    yield* (yield* Orders)
      .transition(
        orderId,
        ["queued"],
        "needs_attention",
        { unknownSince: now, unknownAttempts: 2, lastError: "Marketplace did not confirm the delivery" },
        now
      )
      .pipe(Effect.orDie)
  })

/** Whether `example` is a part of `whole` (an element or a field, at any depth). */
const partOf = (example: unknown, whole: unknown): boolean =>
  differences(example, whole).length === 0 ||
  (whole !== null && typeof whole === "object" && Object.values(whole).some((v) => partOf(example, v)))

const admin = { "x-admin-token": TEST_ADMIN_TOKEN }

layer(World, { timeout: "120 seconds", excludeTestServices: true })("documented examples replayed", (it) => {
  it.effect(
    "each example equals the answer to its request",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const found: Record<string, Array<string>> = {}
        const asked = new Set<string>(["public.botWebhook", "admin.pricing"])
        const replayed = new Set<string>()
        const answered = new Set<string>()
        const compare = (key: string, example: unknown, status: number, answer: Answer) => {
          const problems = answerDifferences(example, status, answer)
          if (problems.length > 0) found[key] = problems
        }
        const expect = (name: string, status: number, answer: Answer) => {
          replayed.add(name)
          compare(name, SCHEMA_EXAMPLES[name], status, answer)
        }
        /** An operation whose documented answer is its own (`RESPONSE_EXAMPLES`), not its schema's. */
        const expectOf = (operationId: string, status: number, answer: Answer) => {
          answered.add(operationId)
          compare(operationId, RESPONSE_EXAMPLES[operationId], status, answer)
        }
        /** A signed-in user holding exactly `balance`, with an API key. */
        let telegramId = 777000110
        const account = (username: string, balance: number) =>
          Effect.gen(function* () {
            const cookie = yield* signInAs(url, ++telegramId, username)
            const userId = (yield* call(url, "/v2/dashboard", { cookie })).json.user.user_id as UserId
            if (balance > 0)
              yield* (yield* Balances)
                .adjust({ userId, amount: balance, reason: "example", key: `example-${username}` })
                .pipe(Effect.orDie)
            const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key as string
            return { cookie, userId, api: { "x-api-key": key } }
          })

        // The example prices.
        const op = yield* setExamplePrices(url)

        // Public reads.
        expect("Pricing", 200, yield* call(url, "/v2/api/pricing"))
        expect("Home", 200, yield* call(url, "/v2/"))
        expect("LoginPage", 200, yield* call(url, "/v2/admin/login"))

        // The API-key API: a balance, an order placed, completed, listed.
        const rich = yield* account("nodira", 150_000)
        expect("Balance", 200, yield* call(url, "/v2/api/balance", { headers: rich.api }))
        const buyer = yield* account("buyer", 127_000)
        const placed = yield* call(url, "/v2/api/stars/buy", {
          json: SCHEMA_EXAMPLES["StarsOrderRequest"],
          headers: buyer.api
        })
        expect("OrderCreated", 200, placed)
        const orderId = placed.json.order.order_id as OrderId
        const orders = yield* OrderService
        yield* orders.claimNext // as the worker takes it
        yield* orders.complete(orderId, completedAsDocumented)
        expect("Order", 200, yield* call(url, `/v2/api/orders/${orderId}`, { headers: buyer.api }))
        expect("OrderList", 200, yield* call(url, "/v2/api/orders", { headers: buyer.api }))

        // Info lookups: the third of the day, then one past the daily quota.
        const looker = yield* account("looker", 0)
        const lookup = () => call(url, "/v2/api/getInfo", { json: SCHEMA_EXAMPLES["NameRequest"], headers: looker.api })
        const used = (SCHEMA_EXAMPLES["InfoLookup"] as { quota: { used: number; limit: number } }).quota
        for (let i = 1; i < used.used; i++) yield* lookup()
        expect("InfoLookup", 200, yield* lookup())
        for (let i = used.used; i < used.limit; i++) yield* lookup()
        expect("TooManyRequestsEncoded", 429, yield* lookup())

        // Errors, one per status.
        expect(
          "BadRequestEncoded",
          400,
          yield* call(url, "/v2/api/stars/buy", { json: { username: "durov", amount: 10 }, headers: buyer.api })
        )
        expect("UnauthorizedEncoded", 401, yield* call(url, "/v2/api/balance"))
        expect("NotFoundEncoded", 404, yield* call(url, "/v2/api/orders/99999999", { headers: buyer.api }))
        const poor = yield* account("poor", 1_500)
        expect(
          "ConflictEncoded",
          409,
          yield* call(url, "/v2/api/stars/buy", { json: SCHEMA_EXAMPLES["StarsOrderRequest"], headers: poor.api })
        )
        expect(
          "HTTPValidationErrorEncoded",
          422,
          yield* call(url, "/v2/api/stars/buy", { json: { username: "durov" }, headers: buyer.api })
        )

        // Top-ups: one created, paid by the bank relay.
        const payer = yield* account("payer", 0)
        const older = yield* call(url, "/v2/api/topups", { json: { amount_uzs: 60_000 }, headers: payer.api })
        assert.strictEqual(older.status, 200, older.text)
        const created = yield* call(url, "/v2/api/topups", {
          json: SCHEMA_EXAMPLES["TopupRequest"],
          headers: payer.api
        })
        expect("TopupCreated", 200, created)
        expect("Topup", 200, yield* call(url, `/v2/api/topups/${created.json.topup.topup_id}`, { headers: payer.api }))
        expect(
          "IncomingPaymentResult",
          200,
          yield* call(url, "/v2/api/admin/payments/incoming", {
            json: { ...(SCHEMA_EXAMPLES["IncomingPaymentRequest"] as object), amount_uzs: created.json.payable_uzs },
            headers: admin
          })
        )

        expect("TopupList", 200, yield* call(url, "/v2/api/topups?limit=1", { headers: payer.api }))

        // Webhook endpoints.
        const hook = yield* call(url, "/v2/api/webhooks", {
          json: SCHEMA_EXAMPLES["WebhookCreateRequest"],
          headers: rich.api
        })
        expect("WebhookEndpointWithSecret", 200, hook)
        expect("WebhookEndpointList", 200, yield* call(url, "/v2/api/webhooks", { headers: rich.api }))
        const sent = yield* call(url, `/v2/api/webhooks/${hook.json.id}/test`, { method: "POST", headers: rich.api })
        expect("WebhookTestSent", 200, sent)
        expect(
          "WebhookDeleted",
          200,
          yield* call(url, `/v2/api/webhooks/${hook.json.id}`, { method: "DELETE", headers: rich.api })
        )

        // A signed-in user's key, tickets and orders page.
        const fresh = yield* account("rotating", 0)
        const example = (operationId: string) => {
          asked.add(operationId)
          return REQUEST_EXAMPLES[operationId] as Record<string, string>
        }
        expect(
          "ApiKey",
          200,
          yield* call(url, "/v2/api-key/rotate", { form: example("account.rotateApiKey"), cookie: fresh.cookie })
        )
        expect(
          "ForbiddenEncoded",
          403,
          yield* call(url, "/v2/api-key/rotate", {
            method: "POST",
            cookie: fresh.cookie,
            headers: { origin: "https://elsewhere.example" }
          })
        )
        expect(
          "PayloadTooLargeEncoded",
          413,
          yield* call(url, "/v2/api/stars/buy", {
            body: "x".repeat(2_000_000),
            headers: { "content-type": "application/json" }
          })
        )
        expect("ApiDocs", 200, yield* call(url, "/v2/api-docs", { cookie: fresh.cookie }))
        expect("OrdersPage", 200, yield* call(url, "/v2/orders/list", { cookie: buyer.cookie }))
        const writer = yield* account("writer", 0)
        const ticket = yield* call(url, "/v2/tickets/new", {
          form: example("account.createTicket"),
          cookie: writer.cookie
        })
        expect("TicketDetail", 200, ticket)
        expect("Tickets", 200, yield* call(url, "/v2/tickets", { cookie: writer.cookie }))
        const ticketId = ticket.json.ticket.ticket_id as number
        const first = ticket.json.messages[0].message_id as number
        yield* call(url, `/v2/admin/tickets/${ticketId}/reply`, {
          form: example("admin.replyTicket"),
          cookie: op
        })
        expect(
          "TicketPoll",
          200,
          yield* call(url, `/v2/tickets/${ticketId}/poll?after=${first}`, { cookie: writer.cookie })
        )
        expect(
          "Ok",
          200,
          yield* call(url, "/v2/bot/webhook/test-webhook-secret", {
            json: REQUEST_EXAMPLES["public.botWebhook"],
            headers: { "x-telegram-bot-api-secret-token": "test-webhook-header-secret" }
          })
        )

        // The remaining form examples, each on the state it needs.
        const ok = (answer: { status: number; text: string }, operationId: string) =>
          assert.isBelow(answer.status, 400, `${operationId}: ${answer.text}`)
        ok(
          yield* call(url, `/v2/tickets/${ticketId}/reply`, {
            form: example("account.replyTicket"),
            cookie: writer.cookie
          }),
          "account.replyTicket"
        )
        const upgrader = yield* account("upgrader", 127_000)
        expect(
          "TierUpgrade",
          200,
          yield* call(url, "/v2/api-docs/getinfo-upgrade", {
            form: example("account.upgradeInfoTier"),
            cookie: upgrader.cookie
          })
        )
        expect(
          "Ok",
          200,
          yield* call(url, "/v2/push/subscribe", {
            json: REQUEST_EXAMPLES["account.pushSubscribe"],
            cookie: upgrader.cookie
          })
        )
        asked.add("account.pushSubscribe")
        const carded = yield* call(url, "/v2/balance/top-up", {
          form: example("account.createTopup"),
          cookie: upgrader.cookie
        })
        expect("TopupCreated", 200, carded)
        const approveId = carded.json.topup.topup_id as number
        ok(
          yield* call(url, `/v2/admin/topups/${approveId}/approve`, {
            form: example("admin.approveTopup"),
            cookie: op
          }),
          "admin.approveTopup"
        )
        const rejectId = (yield* call(url, "/v2/balance/top-up", {
          form: { amount_uzs: "70000" },
          cookie: upgrader.cookie
        })).json.topup.topup_id as number
        ok(
          yield* call(url, `/v2/admin/topups/${rejectId}/reject`, { form: example("admin.rejectTopup"), cookie: op }),
          "admin.rejectTopup"
        )
        ok(
          yield* call(url, "/v2/gifts/buy", { form: example("account.buyGift"), cookie: upgrader.cookie }),
          "account.buyGift"
        )
        const queued = (yield* call(url, "/v2/api/stars/buy", {
          json: { username: "durov", amount: 50 },
          headers: upgrader.api
        })).json.order.order_id as number
        ok(
          yield* call(url, `/v2/admin/orders/${queued}/mark-done`, {
            form: example("admin.markOrderDone"),
            cookie: op
          }),
          "admin.markOrderDone"
        )

        // The operator's sign-in: the test server's token in place of the documented placeholder.
        const login = yield* call(url, "/v2/admin/login", {
          form: { ...example("adminLogin.login"), token: TEST_ADMIN_TOKEN }
        })
        assert.strictEqual(login.status, 303, `adminLogin.login: ${login.text}`)
        assert.isString(login.headers["location"], "adminLogin.login: its documented Location")
        assert.isDefined(login.headers["set-cookie"], "adminLogin.login: its documented Set-Cookie")
        // A receipt: a real PNG in place of the documented placeholder file.
        const receipt = new FormData()
        for (const [field, value] of Object.entries(example("account.uploadReceipt")))
          if (field === "receipt") receipt.set(field, new Blob([PNG], { type: "image/png" }), "receipt.png")
          else receipt.set(field, value)
        expectOf(
          "account.uploadReceipt",
          200,
          yield* call(url, "/v2/balance/top-up/receipt", { body: receipt, cookie: upgrader.cookie })
        )
        // A refund: an order the worker left in the operators' queue.
        const stuck = (yield* call(url, "/v2/api/stars/buy", {
          json: SCHEMA_EXAMPLES["StarsOrderRequest"],
          headers: upgrader.api
        })).json.order.order_id as OrderId
        yield* leftUnconfirmed(stuck)
        expectOf(
          "admin.refundOrder",
          200,
          yield* call(url, `/v2/admin/orders/${stuck}/refund`, { form: example("admin.refundOrder"), cookie: op })
        )
        assert.deepStrictEqual(
          Object.keys(REQUEST_EXAMPLES).filter((id) => !asked.has(id)),
          [],
          "request examples never sent"
        )

        assert.deepStrictEqual(found, {})
        assert.deepStrictEqual(
          Object.keys(RESPONSE_EXAMPLES).filter((id) => !answered.has(id)),
          [],
          "operation answers with no replay"
        )
        // An example inside a replayed one was compared with it.
        for (const name of Object.keys(SCHEMA_EXAMPLES))
          if (
            !replayed.has(name) &&
            [...replayed].some((whole) => partOf(SCHEMA_EXAMPLES[name], SCHEMA_EXAMPLES[whole]))
          )
            replayed.add(name)
        const answers = Object.keys(SCHEMA_EXAMPLES).filter((name) => !name.endsWith("Request"))
        assert.deepStrictEqual(
          answers.filter((name) => !replayed.has(name) && NOT_REPLAYED[name] === undefined),
          [],
          "examples with no replay"
        )
      }),
    { timeout: 120_000 } // some 70 requests, on a loaded machine
  )
})
