/**
 * The webhook endpoints over real HTTP and PostgreSQL, and the worker's side over the same database:
 * an endpoint registered at a loopback receiver (sandbox setting on) receives `order.completed` once
 * when the order completes, signed per Standard Webhooks (verified here from the spec); the log
 * shows it; a failed order's `order.failed` carries its `error_code`; private targets, unknown ids and a sixth endpoint are refused with their codes.
 */
import { assert, layer } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import type { OrderId } from "@resale/core/ids.ts"
import { NotificationDelivery } from "@resale/core/outbox/NotificationDelivery.ts"
import { marketplaceFailure } from "@resale/core/orders/OrderFailure.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Notifier } from "@resale/core/ports/Notifier.ts"
import { WebhookDispatch } from "@resale/core/webhooks/WebhookDispatch.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { WebhookFanOutLive } from "@resale/core/webhooks/WebhookFanOut.ts"
import { Webhooks } from "@resale/core/webhooks/Webhooks.ts"
import { WebhookPolicy } from "@resale/core/webhooks/WebhookTargets.ts"
import { HttpsWebhookSender } from "@resale/push/HttpsWebhookSender.ts"
import { Effect, Layer, Option } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { call, signIn, TEST_ADMIN_TOKEN } from "./Client.ts"
import { SCHEMA_EXAMPLES } from "../src/api/OpenApiExamples.ts"
import { differences } from "./ExampleMatch.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

interface Received {
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
}

/** A loopback receiver answering 200, recording every request. */
const receiver = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ url: string; received: Array<Received>; server: http.Server }>((resolve) => {
        const received: Array<Received> = []
        const server = http.createServer((req, res) => {
          let body = ""
          req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
          req.on("end", () => {
            received.push({ headers: req.headers, body })
            res.writeHead(200).end()
          })
        })
        server.listen(0, "127.0.0.1", () =>
          resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`, received, server })
        )
      })
  ),
  ({ server }) => Effect.promise(() => new Promise<void>((done) => server.close(() => done())))
)

/** Standard Webhooks verification as a receiver writes it: HMAC-SHA256 of `id.timestamp.body` with the decoded secret. */
const verify = (secret: string, r: Received): boolean => {
  const key = Buffer.from(secret.slice("whsec_".length), "base64")
  const expected = createHmac("sha256", key)
    .update(`${r.headers["webhook-id"]}.${r.headers["webhook-timestamp"]}.${r.body}`)
    .digest()
  return String(r.headers["webhook-signature"])
    .split(" ")
    .some((part) => {
      const given = Buffer.from(part.split(",")[1] ?? "", "base64")
      return part.startsWith("v1,") && given.length === expected.length && timingSafeEqual(given, expected)
    })
}

// One database for the server and the worker-side calls of this file (wired as the worker wires them).
const Store = IsolatedPostgres.layerStore
const WorkerSide = NotificationDelivery.layer.pipe(
  Layer.provideMerge(
    Layer.mergeAll(WebhookFanOutLive, WebhookDispatch.layer).pipe(
      Layer.provideMerge(Webhooks.layer),
      Layer.provide(HttpsWebhookSender)
    )
  ),
  Layer.provideMerge(CoreServices),
  Layer.provide(Layer.succeed(Notifier)({ push: () => Effect.void, botMessage: () => Effect.void })),
  Layer.provide(Layer.succeed(WebhookPolicy)({ allowLoopback: true })),
  Layer.provideMerge(Store)
)
const World = Layer.mergeAll(
  makeTestServer(Store, { sandbox: true, webhooksAllowLoopback: true }, DatabasePing.layer as never),
  WorkerSide
)

const admin = { "x-admin-token": TEST_ADMIN_TOKEN }

layer(World, { timeout: "60 seconds", excludeTestServices: true })("webhooks API", (it) => {
  const account = (telegramId: number, name: string) =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cookie = yield* signIn(url, telegramId, name)
      const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key as string
      return { cookie, headers: { "x-api-key": key } }
    })

  it.effect("an order completing reaches the registered endpoint once, signed; the log shows it delivered", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const hook = yield* receiver
      const { cookie, headers } = yield* account(97001, "integrator")
      const created = yield* call(url, "/v2/api/webhooks", {
        json: { url: hook.url, events: ["order.completed"] },
        headers
      })
      assert.strictEqual(created.status, 200, created.text)
      const secret = created.json.secret as string
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/)
      assert.deepStrictEqual(created.json.events, ["order.completed"])
      const listed = yield* call(url, "/v2/api/webhooks", { headers })
      assert.deepStrictEqual(
        listed.json.webhooks.map((w: Record<string, unknown>) => [w["id"], w["url"], "secret" in w]),
        [[created.json.id, hook.url, false]]
      )

      const topup = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "100000" }, cookie })).json.topup
      assert.strictEqual(
        (yield* call(url, `/v2/api/admin/topups/${topup.topup_id}/mark-paid`, { method: "POST", headers: admin }))
          .status,
        200
      )
      const bought = yield* call(url, "/v2/api/stars/buy", { json: { username: "friend", amount: 50 }, headers })
      assert.strictEqual(bought.status, 200, bought.text)
      const orderId = bought.json.order.order_id as number
      // the worker's side: the order is fulfilled, the outbox delivered, the webhook sent
      const orders = yield* OrderService
      assert.strictEqual(Option.getOrThrow(yield* orders.claimNext).id, orderId as OrderId)
      yield* orders.complete(orderId as OrderId, { txId: "tx-1" })
      const notifications = yield* NotificationDelivery
      const dispatch = yield* WebhookDispatch
      while ((yield* notifications.runOnce) > 0) {
        /* until the outbox is drained */
      }
      assert.strictEqual(yield* dispatch.runOnce(10), 1, "only order.completed is subscribed")
      assert.strictEqual(yield* dispatch.runOnce(10), 0)

      assert.strictEqual(hook.received.length, 1)
      const [request] = hook.received
      assert.isTrue(verify(secret, request!))
      const body = JSON.parse(request!.body)
      assert.strictEqual(body.type, "order.completed")
      assert.deepInclude(body.data, { order_id: orderId, kind: "stars", recipient: "friend", tx_id: "tx-1" })
      const log = yield* call(url, `/v2/api/webhooks/${created.json.id}/deliveries`, { headers })
      assert.strictEqual(log.status, 200, log.text)
      assert.deepInclude(log.json.deliveries[0], {
        event_id: request!.headers["webhook-id"],
        event: "order.completed",
        status: "delivered",
        attempts: 1,
        last_status_code: 200,
        next_attempt_at: null
      })
      assert.isString(log.json.deliveries[0].delivered_at)
      // The documented delivery log is this answer (ids and times by their shape).
      assert.deepStrictEqual(differences(SCHEMA_EXAMPLES["WebhookDeliveryLog"], log.json), [])

      // a test event after a rotation is signed with the new secret only
      const rotated = yield* call(url, `/v2/api/webhooks/${created.json.id}/rotate-secret`, { method: "POST", headers })
      assert.strictEqual(rotated.status, 200, rotated.text)
      const test = yield* call(url, `/v2/api/webhooks/${created.json.id}/test`, { method: "POST", headers })
      assert.match(test.json.event_id, /^evt_test_/)
      yield* dispatch.runOnce(10)
      assert.strictEqual(hook.received[1]!.headers["webhook-id"], test.json.event_id)
      assert.isTrue(verify(rotated.json.secret, hook.received[1]!))
      assert.isFalse(verify(secret, hook.received[1]!))
    }).pipe(Effect.scoped)
  )

  it.effect("a failed order reaches the endpoint as order.failed with the shopper failure's error_code, signed", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const hook = yield* receiver
      const { cookie, headers } = yield* account(97004, "failing")
      const created = yield* call(url, "/v2/api/webhooks", {
        json: { url: hook.url, events: ["order.failed"] },
        headers
      })
      assert.strictEqual(created.status, 200, created.text)
      const topup = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "100000" }, cookie })).json.topup
      yield* call(url, `/v2/api/admin/topups/${topup.topup_id}/mark-paid`, { method: "POST", headers: admin })
      const bought = yield* call(url, "/v2/api/stars/buy", { json: { username: "nobody_here", amount: 50 }, headers })
      assert.strictEqual(bought.status, 200, bought.text)
      const orderId = bought.json.order.order_id as number
      // the worker's side: the marketplace finds no such user; the order fails and is refunded
      yield* (yield* OrderService).fail(
        orderId as OrderId,
        marketplaceFailure("RecipientNotFound", "Fragment searchStarsRecipient: No Telegram users found.")
      )
      const notifications = yield* NotificationDelivery
      while ((yield* notifications.runOnce) > 0) {
        /* until the outbox is drained */
      }
      assert.strictEqual(yield* (yield* WebhookDispatch).runOnce(10), 1, "only order.failed is subscribed")

      assert.strictEqual(hook.received.length, 1)
      const [request] = hook.received
      assert.isTrue(verify(created.json.secret, request!))
      const body = JSON.parse(request!.body)
      assert.strictEqual(body.type, "order.failed")
      assert.deepStrictEqual(body.data, {
        order_id: orderId,
        kind: "stars",
        recipient: "nobody_here",
        refunded_uzs: bought.json.order.price_uzs,
        error_code: "recipient_not_found"
      })
      // the same code as the order's own record
      const order = yield* call(url, `/v2/api/orders/${orderId}`, { headers })
      assert.deepStrictEqual([order.json.status, order.json.error_code], ["failed", "recipient_not_found"])
    }).pipe(Effect.scoped)
  )

  it.effect("refused: private targets (400), another account's endpoint (404), a sixth endpoint (409); delete", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const { headers } = yield* account(97002, "careful")
      const other = yield* account(97003, "other")
      for (const target of [
        "https://10.0.0.5/hook",
        "https://169.254.169.254/latest",
        "http://example.com/hook",
        "https://[fd00::1]/x",
        "https://192.168.1.1/x"
      ]) {
        const refused = yield* call(url, "/v2/api/webhooks", { json: { url: target }, headers })
        assert.strictEqual(refused.status, 400, target)
        assert.deepStrictEqual([refused.json.code, refused.json.params.field], ["webhook_url_refused", "url"])
      }
      const badEvents = yield* call(url, "/v2/api/webhooks", {
        json: { url: "https://example.com/h", events: ["order.lost"] },
        headers
      })
      assert.strictEqual(badEvents.json.code, "webhook_events_invalid")
      const ids: Array<number> = []
      for (let i = 0; i < 5; i++)
        ids.push(
          (yield* call(url, "/v2/api/webhooks", { json: { url: `https://example.com/h${i}` }, headers })).json.id
        )
      const sixth = yield* call(url, "/v2/api/webhooks", { json: { url: "https://example.com/h6" }, headers })
      assert.deepStrictEqual(
        [sixth.status, sixth.json.code, sixth.json.params.limit],
        [409, "webhook_endpoints_limit", 5]
      )
      for (const path of [
        `/v2/api/webhooks/${ids[0]}/deliveries`,
        `/v2/api/webhooks/${ids[0]}/test`,
        `/v2/api/webhooks/${ids[0]}`
      ]) {
        const method = path.endsWith("deliveries") ? "GET" : path.endsWith("test") ? "POST" : "DELETE"
        const foreign = yield* call(url, path, { method, headers: other.headers })
        assert.deepStrictEqual([foreign.status, foreign.json.code], [404, "webhook_not_found"], path)
      }
      const deleted = yield* call(url, `/v2/api/webhooks/${ids[0]}`, { method: "DELETE", headers })
      assert.deepStrictEqual(deleted.json, { id: ids[0], deleted: true })
      assert.strictEqual((yield* call(url, "/v2/api/webhooks", { headers })).json.webhooks.length, 4)
      assert.strictEqual((yield* call(url, "/v2/api/webhooks", { headers: {} })).status, 401)
    })
  )
})
