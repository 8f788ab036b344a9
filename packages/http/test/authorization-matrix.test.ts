import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "../src/api/Api.ts"
import { adminSignIn, type Call, call, PNG, signIn, TEST_ADMIN_TOKEN } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

/** Who an endpoint is for, read from the contract's middleware (the source of truth). */
type Audience = "user" | "operator" | "apiKey" | "adminToken"

const AUDIENCE_BY_MIDDLEWARE: Record<string, Audience> = {
  "http/api/UserSession": "user",
  "http/api/OperatorSession": "operator",
  "http/api/ApiKeyAuth": "apiKey",
  "http/api/AdminTokenAuth": "adminToken"
}

interface Endpoint {
  readonly name: string
  readonly method: string
  readonly path: string
  readonly audience: Audience
}

/** Every protected endpoint of the contract: a route added later is in the matrix at once. */
const protectedEndpoints = (): Array<Endpoint> =>
  Object.entries((Api as unknown as { groups: Record<string, { endpoints: Record<string, unknown> }> }).groups).flatMap(
    ([group, g]) =>
      Object.entries(g.endpoints).flatMap(([name, raw]) => {
        const endpoint = raw as { method: string; path: string; middlewares: Set<{ key: string }> }
        const audience = [...endpoint.middlewares]
          .map((m) => AUDIENCE_BY_MIDDLEWARE[m.key])
          .find((a) => a !== undefined)
        return audience === undefined
          ? []
          : [{ name: `${group}.${name}`, method: endpoint.method, path: endpoint.path, audience }]
      })
  )

const receiptForm = () => {
  const form = new FormData()
  form.set("amount_uzs", "20000")
  form.set("receipt", new Blob([PNG], { type: "image/png" }), "r.png")
  return form
}

/** A request each endpoint accepts as valid input, so only the credentials decide the answer. */
const VALID: Record<string, Call> = {
  "account.createTopup": { form: { amount_uzs: "20000" } },
  "account.uploadReceipt": { body: receiptForm() },
  "account.buyGift": { form: { username: "friend", gift_id: "1" } },
  "account.upgradeInfoTier": { form: { tier: "1" } },
  "account.createTicket": { form: { subject: "s", body: "b" } },
  "account.replyTicket": { form: { body: "b" } },
  "account.pushSubscribe": { json: { endpoint: "https://push.example/1", keys: { p256dh: "k", auth: "a" } } },
  "admin.pricing": {
    form: { star_price_uzs: "1", premium_3_month_uzs: "1", premium_6_month_uzs: "1", premium_12_month_uzs: "1" }
  },
  "admin.approveTopup": { form: {} },
  "admin.rejectTopup": { form: {} },
  "admin.markOrderDone": { form: {} },
  "admin.refundOrder": { form: {} },
  "admin.replyTicket": { form: { body: "b" } },
  "api.createTopup": { json: { amount_uzs: 20000 } },
  "api.buyStars": { json: { username: "friend", amount: 50 } },
  "api.buyPremium": { json: { username: "friend", duration: 3 } },
  "api.buyGift": { json: { username: "friend", gift_id: "1" } },
  "api.getInfo": { json: { username: "friend" } },
  "apiAdmin.incomingPayment": { json: { amount_uzs: 1 } },
  "webhooks.createWebhook": { json: { url: "https://example.com/hook" } },
  "shopper.buyStars": { form: { username: "friend", amount: "50" } },
  "shopper.buyPremium": { form: { username: "friend", duration: "3" } },
  "panelForms.adjust": { form: { amount_uzs: "1", reason: "r" }, headers: { "idempotency-key": "matrix-key-1" } },
  "panelForms.assign": { form: { topup_id: "1" } }
}

const requestOf = (e: Endpoint, credentials: Call): [string, Call] => {
  const sample = VALID[e.name] ?? {}
  const path = e.path.replace(/:\w+/g, "1")
  // A fresh multipart body per request: a FormData is read once.
  const body = e.name === "account.uploadReceipt" ? { body: receiptForm() } : sample
  return [path, { method: e.method, ...body, ...credentials, headers: { ...body.headers, ...credentials.headers } }]
}

layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })(
  "authorization matrix over the whole contract",
  (it) => {
    it.effect(
      "the contract has endpoints of every audience, and every POST of them has a valid sample or needs no body",
      () =>
        Effect.sync(() => {
          const endpoints = protectedEndpoints()
          assert.deepStrictEqual([...new Set(endpoints.map((e) => e.audience))].sort(), [
            "adminToken",
            "apiKey",
            "operator",
            "user"
          ])
          assert.isAtLeast(endpoints.length, 40)
          const bodyless = new Set([
            "account.rotateApiKey",
            "account.deleteOwnWebhook",
            "account.cancelTopup",
            "sandbox.openPushInbox",
            "admin.retryOrder",
            "admin.recheckOrder",
            "admin.closeTicket",
            "admin.reopenTicket",
            "apiAdmin.markPaid",
            "people.deleteWebhook",
            "webhooks.rotateWebhookSecret",
            "webhooks.testWebhook"
          ])
          for (const e of endpoints.filter((e) => e.method === "POST")) {
            assert.isTrue(e.name in VALID || bodyless.has(e.name), `${e.name} needs a valid sample in VALID`)
          }
        })
    )

    it.effect("anonymous: 401 with a detail on every protected endpoint, with valid input", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        for (const e of protectedEndpoints()) {
          const [path, options] = requestOf(e, {})
          const answer = yield* call(url, path, options)
          assert.strictEqual(answer.status, 401, `${e.name} ${e.method} ${path}: ${answer.text}`)
          assert.isString(answer.json.detail, e.name)
        }
      })
    )

    it.effect(
      "wrong kind of credentials: 401 everywhere (a user on operator routes, a cookie on key routes, a key as admin token)",
      () =>
        Effect.gen(function* () {
          const { url } = yield* TestServer
          const user = yield* signIn(url, 82001, "matrix_user")
          const op = yield* adminSignIn(url)
          const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie: user })).json.api_key as string
          const wrong: Record<Audience, ReadonlyArray<[string, Call]>> = {
            user: [
              ["operator cookie", { cookie: op }],
              ["API key", { headers: { "x-api-key": key } }]
            ],
            operator: [
              ["user cookie", { cookie: user }],
              ["admin token header", { headers: { "x-admin-token": TEST_ADMIN_TOKEN } }]
            ],
            apiKey: [
              ["user cookie", { cookie: user }],
              ["operator cookie", { cookie: op }],
              ["admin token", { headers: { "x-admin-token": TEST_ADMIN_TOKEN } }]
            ],
            adminToken: [
              ["user cookie", { cookie: user }],
              ["operator cookie", { cookie: op }],
              ["API key as admin token", { headers: { "x-admin-token": key } }]
            ]
          }
          for (const e of protectedEndpoints()) {
            for (const [who, credentials] of wrong[e.audience]) {
              const [path, options] = requestOf(e, credentials)
              const answer = yield* call(url, path, options)
              assert.strictEqual(answer.status, 401, `${who} on ${e.name} ${e.method} ${path}: ${answer.text}`)
            }
          }
          // Nothing above moved money or changed prices.
          assert.strictEqual((yield* call(url, "/v2/balance", { cookie: user })).json.balance_uzs, 0)
          assert.notStrictEqual((yield* call(url, "/v2/api/pricing")).json.star_price_uzs, 1)
        })
    )
  }
)
