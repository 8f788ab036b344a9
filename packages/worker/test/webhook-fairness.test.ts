/**
 * The webhook job is fair, on real PostgreSQL with real loopback receivers: one endpoint that never
 * answers and one that answers at once, both owed the same events, two send slots. The fast one gets
 * every event promptly while the slow one holds exactly one request (one send in flight per
 * endpoint), and the slow one's log says only "timed out" once its bounded attempt ends.
 */
import { assert, describe, it } from "@effect/vitest"
import { NotificationDelivery } from "@resale/core/outbox/NotificationDelivery.ts"
import { Notifications } from "@resale/core/outbox/Notifications.ts"
import { Notifier } from "@resale/core/ports/Notifier.ts"
import { Outbox } from "@resale/core/ports/Outbox.ts"
import { Users } from "@resale/core/ports/Users.ts"
import { WebhookDispatch } from "@resale/core/webhooks/WebhookDispatch.ts"
import { Webhooks } from "@resale/core/webhooks/Webhooks.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect, Layer } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { WorkerConfig } from "../src/WorkerConfig.ts"
import { webhookSends } from "../src/WorkerJobs.ts"
import { WorkerWebhooks } from "../src/WorkerLive.ts"

/** A loopback receiver: `answer` true answers 200 at once, false never answers. Records arrival times. */
const receiver = (answer: boolean) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ url: string; arrived: Array<number>; server: http.Server }>((resolve) => {
          const arrived: Array<number> = []
          const server = http.createServer((req, res) => {
            arrived.push(Date.now())
            req.resume()
            if (answer) req.on("end", () => res.writeHead(200).end())
          })
          server.listen(0, "127.0.0.1", () =>
            resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`, arrived, server })
          )
        })
    ),
    ({ server }) =>
      Effect.promise(
        () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      )
  )

const worker = NotificationDelivery.layer.pipe(
  Layer.provideMerge(WorkerWebhooks),
  Layer.provideMerge(Notifications.layer),
  Layer.provide(Layer.succeed(Notifier)({ push: () => Effect.void, botMessage: () => Effect.void })),
  Layer.provide(WorkerConfig.layerTest({ webhooksAllowLoopback: true })),
  Layer.provideMerge(IsolatedPostgres.layerStore)
)

describe("webhook job fairness (real PostgreSQL, loopback receivers)", () => {
  it.live(
    "an endpoint that never answers holds one request; the other endpoint's events all arrive promptly",
    () =>
      Effect.gen(function* () {
        const slow = yield* receiver(false)
        const fast = yield* receiver(true)
        const user = yield* Users.use((users) =>
          users.upsertTelegram({ telegramId: 7, username: "two", firstName: "Two", photoUrl: null }, new Date())
        )
        // the slow endpoint first: it is claimed first and its oldest events come first
        const slowEndpoint = yield* Webhooks.use((w) => w.register(user.id, { url: slow.url }))
        yield* Webhooks.use((w) => w.register(user.id, { url: fast.url }))
        const outbox = yield* Outbox
        for (let i = 0; i < 4; i++)
          yield* outbox.add(
            { kind: "order.completed", userId: user.id, payload: { orderId: i + 1, kind: "stars", recipient: "x" } },
            new Date()
          )
        assert.strictEqual(yield* (yield* NotificationDelivery).runOnce, 4)

        const started = Date.now()
        const step = yield* webhookSends(yield* WebhookDispatch, 2)
        yield* Effect.forkScoped(
          Effect.forever(Effect.flatMap(step, (busy) => (busy ? Effect.void : Effect.sleep("20 millis"))))
        )
        while (fast.arrived.length < 4 && Date.now() - started < 8_000) yield* Effect.sleep("25 millis")

        assert.strictEqual(fast.arrived.length, 4, "every event reached the endpoint that answers")
        assert.isBelow(Math.max(...fast.arrived) - started, 3_000, "promptly, while the other one hangs")
        assert.strictEqual(slow.arrived.length, 1, "the hanging endpoint holds one send, never a second")
        const log = yield* Webhooks.use((w) => w.deliveries(user.id, slowEndpoint.id))
        assert.deepStrictEqual(
          log.map((d) => [d.status, d.attempts]),
          Array.from({ length: 4 }, () => ["pending", 0])
        )

        // the hanging attempt is bounded; the log then says only that it timed out
        while (Date.now() - started < 14_000) {
          const attempted = (yield* Webhooks.use((w) => w.deliveries(user.id, slowEndpoint.id))).filter(
            (d) => d.attempts > 0
          )
          if (attempted.length > 0) {
            assert.deepStrictEqual(
              attempted.map((d) => [d.status, d.lastError, d.lastStatusCode]),
              [["pending", "timed out", null]]
            )
            return
          }
          yield* Effect.sleep("100 millis")
        }
        assert.fail("the hanging attempt was never recorded")
      }).pipe(Effect.scoped, Effect.provide(worker)),
    30_000
  )
})
