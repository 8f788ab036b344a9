/**
 * Webhooks end to end inside the worker, on real PostgreSQL and a loopback receiver speaking plain
 * HTTP: an order's outbox event is fanned out to the registered endpoint and POSTed once, signed per
 * Standard Webhooks (verified here independently); a 500 is retried with backoff and then delivered;
 * private targets are refused at registration and at connect time.
 */
import { assert, describe, it } from "@effect/vitest"
import { NotificationDelivery } from "@resale/core/outbox/NotificationDelivery.ts"
import { Notifications } from "@resale/core/outbox/Notifications.ts"
import { Notifier } from "@resale/core/ports/Notifier.ts"
import { Outbox } from "@resale/core/ports/Outbox.ts"
import { Users } from "@resale/core/ports/Users.ts"
import { WebhookDispatch } from "@resale/core/webhooks/WebhookDispatch.ts"
import { Webhooks } from "@resale/core/webhooks/Webhooks.ts"
import { WebhookSender } from "@resale/core/ports/WebhookSender.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Duration, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { createHmac, timingSafeEqual } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { HttpsWebhookSender } from "@resale/push/HttpsWebhookSender.ts"
import { WorkerConfig } from "../src/WorkerConfig.ts"
import { WorkerWebhooks } from "../src/WorkerLive.ts"

interface Received {
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
}

/** A loopback receiver answering the given statuses in turn (then 200), recording every request. */
const receiver = (statuses: ReadonlyArray<number>) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ url: string; received: Array<Received>; server: http.Server }>((resolve) => {
          const received: Array<Received> = []
          const server = http.createServer((req, res) => {
            let body = ""
            req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
            req.on("end", () => {
              received.push({ headers: req.headers, body })
              res.writeHead(statuses[received.length - 1] ?? 200).end("ok")
            })
          })
          server.listen(0, "127.0.0.1", () =>
            resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, server })
          )
        })
    ),
    ({ server }) => Effect.promise(() => new Promise<void>((done) => server.close(() => done())))
  )

/** The receiver's side of Standard Webhooks, written from the spec, not from the sender's code. */
const verify = (secret: string, request: Received): boolean => {
  const id = String(request.headers["webhook-id"])
  const timestamp = String(request.headers["webhook-timestamp"])
  const key = Buffer.from(secret.slice("whsec_".length), "base64")
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${request.body}`).digest()
  return String(request.headers["webhook-signature"])
    .split(" ")
    .some((part) => {
      const [version, signature] = part.split(",")
      const given = Buffer.from(signature ?? "", "base64")
      return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected)
    })
}

const NoNotifier = Layer.succeed(Notifier)({ push: () => Effect.void, botMessage: () => Effect.void })

const worker = (allowLoopback: boolean) =>
  NotificationDelivery.layer.pipe(
    Layer.provideMerge(WorkerWebhooks),
    Layer.provideMerge(Notifications.layer),
    Layer.provide(NoNotifier),
    Layer.provide(WorkerConfig.layerTest({ webhooksAllowLoopback: allowLoopback })),
    Layer.provideMerge(IsolatedPostgres.layerStore)
  )

const newUser = Users.use((users) =>
  users.upsertTelegram({ telegramId: 42, username: "dev", firstName: "Dev", photoUrl: null }, new Date())
)

describe("webhooks (worker, real PostgreSQL, loopback receiver)", () => {
  it.effect(
    "an order completing is delivered once, signed; a retried outbox event adds no second delivery",
    () =>
      Effect.gen(function* () {
        const hook = yield* receiver([])
        const user = yield* newUser
        const endpoint = yield* Webhooks.use((w) => w.register(user.id, { url: hook.url, events: ["order.completed"] }))
        assert.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]+=*$/)
        const outbox = yield* Outbox
        const event = yield* outbox.add(
          {
            kind: "order.completed",
            userId: user.id,
            payload: { orderId: 7, kind: "stars", recipient: "durov", txId: "abc" }
          },
          new Date(0)
        )
        yield* outbox.add(
          { kind: "topup.paid", userId: user.id, payload: { topupId: 1, amountUzs: 5000, balanceUzs: 5000 } },
          new Date(0)
        )
        const delivery = yield* NotificationDelivery
        assert.strictEqual(yield* delivery.runOnce, 2)
        // the same event delivered again (a retry of its notification) fans out to nothing new
        yield* delivery.deliver(event)
        const dispatch = yield* WebhookDispatch
        assert.strictEqual(yield* dispatch.runOnce(10), 1, "topup.credited is not subscribed")
        assert.strictEqual(yield* dispatch.runOnce(10), 0)

        assert.strictEqual(hook.received.length, 1)
        const request = hook.received[0]!
        assert.isTrue(verify(endpoint.secret, request), "signature verifies with the endpoint's secret")
        // the id drawn when the event was written: random, never the outbox sequence number
        assert.strictEqual(request.headers["webhook-id"], event.webhookId)
        assert.match(String(request.headers["webhook-id"]), /^evt_[0-9A-Za-z]{22}$/)
        assert.match(String(request.headers["webhook-timestamp"]), /^\d+$/)
        assert.deepStrictEqual(JSON.parse(request.body), {
          type: "order.completed",
          timestamp: new Date(0).toISOString(),
          data: { order_id: 7, kind: "stars", recipient: "durov", tx_id: "abc", delivery: null, fragment_ref: null }
        })
        const [logged] = yield* Webhooks.use((w) => w.deliveries(user.id, endpoint.id))
        assert.deepInclude(logged, {
          status: "delivered",
          attempts: 1,
          lastStatusCode: 200,
          eventType: "order.completed"
        })

        // a rotated secret signs from now on; the old one no longer verifies
        const rotated = yield* Webhooks.use((w) => w.rotateSecret(user.id, endpoint.id))
        yield* Webhooks.use((w) => w.sendTest(user.id, endpoint.id))
        yield* dispatch.runOnce(10)
        assert.strictEqual(JSON.parse(hook.received[1]!.body).type, "webhook.test")
        assert.isTrue(verify(rotated.secret, hook.received[1]!))
        assert.isFalse(verify(endpoint.secret, hook.received[1]!))
      }).pipe(Effect.scoped, Effect.provide(worker(true))),
    60_000
  )

  it.effect(
    "a receiver answering 500 is retried after the backoff, then delivered",
    () =>
      Effect.gen(function* () {
        const hook = yield* receiver([500])
        const user = yield* newUser
        const endpoint = yield* Webhooks.use((w) => w.register(user.id, { url: hook.url }))
        yield* (yield* Outbox).add(
          {
            kind: "order.failed",
            userId: user.id,
            payload: { orderId: 9, kind: "premium", recipient: "x", refundedUzs: 1000 }
          },
          new Date(0)
        )
        yield* (yield* NotificationDelivery).runOnce
        const dispatch = yield* WebhookDispatch
        assert.strictEqual(yield* dispatch.runOnce(10), 2, "order.failed and order.refunded")
        assert.strictEqual(hook.received.length, 2)
        const log = yield* Webhooks.use((w) => w.deliveries(user.id, endpoint.id))
        const failed = log.find((d) => d.lastStatusCode === 500)!
        assert.deepInclude(failed, { status: "pending", attempts: 1, lastError: "answered 500" })
        assert.strictEqual(yield* dispatch.runOnce(10), 0, "not before its backoff")
        yield* TestClock.adjust(Duration.seconds(31))
        assert.strictEqual(yield* dispatch.runOnce(10), 1)
        const retried = hook.received[2]!
        assert.strictEqual(retried.headers["webhook-id"], failed.eventId, "the retry keeps the event id")
        assert.isTrue(verify(endpoint.secret, retried))
        const after = yield* Webhooks.use((w) => w.deliveries(user.id, endpoint.id))
        assert.deepStrictEqual(
          after.map((d) => d.status),
          ["delivered", "delivered"]
        )
        assert.deepStrictEqual(after.map((d) => d.attempts).sort(), [1, 2])
      }).pipe(Effect.scoped, Effect.provide(worker(true))),
    60_000
  )

  it.effect(
    "a receiver that keeps failing is retried for a day, then the delivery is marked failed",
    () =>
      Effect.gen(function* () {
        const hook = yield* receiver(Array.from({ length: 50 }, () => 503))
        const user = yield* newUser
        const endpoint = yield* Webhooks.use((w) => w.register(user.id, { url: hook.url, events: ["topup.credited"] }))
        yield* (yield* Outbox).add(
          { kind: "topup.paid", userId: user.id, payload: { topupId: 1, amountUzs: 5000, balanceUzs: 5000 } },
          new Date(0)
        )
        yield* (yield* NotificationDelivery).runOnce
        const dispatch = yield* WebhookDispatch
        for (let hour = 0; hour < 30; hour++) {
          yield* dispatch.runOnce(10)
          yield* TestClock.adjust(Duration.hours(1))
        }
        const [log] = yield* Webhooks.use((w) => w.deliveries(user.id, endpoint.id))
        assert.deepInclude(log, { status: "failed", lastStatusCode: 503, nextAttemptAt: null, deliveredAt: null })
        assert.strictEqual(hook.received.length, log!.attempts)
        assert.isAtLeast(log!.attempts, 8)
        assert.isAtMost(log!.attempts, 30)
        // every attempt carried the same event id
        assert.strictEqual(new Set(hook.received.map((r) => r.headers["webhook-id"])).size, 1)
      }).pipe(Effect.scoped, Effect.provide(worker(true))),
    60_000
  )

  it.effect(
    "private, loopback, metadata and plain-http targets are refused at registration outside the sandbox setting",
    () =>
      Effect.gen(function* () {
        const user = yield* newUser
        for (const url of [
          "http://127.0.0.1:8080/hook",
          "https://127.0.0.1/hook",
          "https://localhost/hook",
          "https://10.1.2.3/hook",
          "https://192.168.0.10/hook",
          "https://169.254.169.254/latest/meta-data",
          "https://[::1]/hook",
          "https://[fd00::1]/hook",
          "http://example.com/hook",
          "https://user:pw@example.com/hook",
          "not a url"
        ]) {
          const refused = yield* Effect.flip(Webhooks.use((w) => w.register(user.id, { url })))
          assert.strictEqual(refused._tag === "WebhookEndpointInvalid" && refused.reason, "UrlRefused", url)
        }
        const events = yield* Effect.flip(
          Webhooks.use((w) => w.register(user.id, { url: "https://example.com/h", events: ["order.shipped"] }))
        )
        assert.strictEqual(events.reason, "EventsInvalid")
        for (let i = 0; i < 5; i++)
          yield* Webhooks.use((w) => w.register(user.id, { url: `https://example.com/h${i}` }))
        const full = yield* Effect.flip(Webhooks.use((w) => w.register(user.id, { url: "https://example.com/h6" })))
        assert.strictEqual(full.reason, "TooMany")
      }).pipe(Effect.provide(worker(false))),
    60_000
  )

  it.effect(
    "the sender refuses a name that resolves to a private address when it connects",
    () =>
      Effect.gen(function* () {
        const sender = yield* WebhookSender
        const error = yield* Effect.flip(
          sender.send(
            { url: "https://localhost:1/hook", secret: "whsec_c2VjcmV0" },
            { id: "evt_1", timestamp: 1, body: "{}" }
          )
        )
        assert.strictEqual(error.reason, "Refused")
      }).pipe(Effect.provide(HttpsWebhookSender)),
    30_000
  )
})
