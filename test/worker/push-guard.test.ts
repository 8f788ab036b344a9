/**
 * Web push delivery never becomes a request to the server's own network: a subscription stored
 * before the rules (plain http to loopback) is dropped without a request, and a push host that
 * resolves to loopback is refused at connect time and dropped too; the event is not retried for it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { NotificationDelivery } from "@resale/core/outbox/NotificationDelivery.ts"
import { Notifications } from "@resale/core/outbox/Notifications.ts"
import { PushPolicy } from "@resale/core/push/PushEndpointRules.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { notifierLayer } from "@resale/world"
import { WorkerConfig } from "@resale/worker/WorkerConfig.ts"
import { NotificationSettingsLive } from "@resale/worker/WorkerLive.ts"
import { Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import webpush from "web-push"
import { startLocalPushService } from "./support/LocalPushService.ts"

describe("web push address guard", () => {
  it.live(
    "a loopback endpoint stored before the rules and a push host resolving to loopback: dropped, nothing sent",
    () =>
      Effect.gen(function* () {
        const push = yield* startLocalPushService
        const vapid = webpush.generateVAPIDKeys()
        const outside = {
          sandbox: false,
          dataDir: ".data/test",
          vapid: Option.some({ publicKey: vapid.publicKey, privateKey: Redacted.make(vapid.privateKey) }),
          vapidSubject: "mailto:operator@example.invalid",
          botToken: Option.none(),
          telegramApiUrl: "http://127.0.0.1:9"
        }
        const stack = NotificationDelivery.layer.pipe(
          Layer.provide(NotificationSettingsLive),
          Layer.provideMerge(notifierLayer(outside)),
          Layer.provideMerge(WorkerConfig.layerTest({ ...outside, operatorChatIds: [] })),
          Layer.provideMerge(CoreServices),
          Layer.provideMerge(IsolatedPostgres.layerStore),
          // "localhost" passes the host list here, so only the connect-time check can stop it.
          Layer.provideMerge(Layer.succeed(PushPolicy)({ allowedHosts: ["localhost"] }))
        )
        yield* Effect.gen(function* () {
          const accounts = yield* Accounts
          const notifications = yield* Notifications
          const user = yield* accounts.signIn({
            telegramId: 556_001,
            username: "guarded",
            firstName: "G",
            photoUrl: null
          })
          const browser = push.subscribe()
          // Refused when subscribing: plain http to an address.
          const refused = yield* Effect.flip(notifications.subscribePush(user.id, browser))
          assert.strictEqual(refused.reason, "EndpointRefused")
          // A row from before the rules, and one on an allowed name that resolves to loopback.
          const sql = yield* SqlClient
          yield* sql`
          INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth, created_at)
          VALUES (${browser.endpoint}, ${user.id}, ${browser.keys.p256dh}, ${browser.keys.auth}, now())`.pipe(
            Effect.orDie
          )
          yield* notifications.subscribePush(user.id, { ...browser, endpoint: "https://localhost/send/abc" })
          assert.strictEqual((yield* notifications.pushSubscriptions(user.id)).length, 2)

          const topups = yield* TopupService
          const topup = yield* topups.create(user.id, 50_000)
          yield* topups.approve(topup.id, "ok")
          const delivery = yield* NotificationDelivery
          assert.strictEqual(yield* delivery.runOnce, 1)

          assert.deepStrictEqual(push.received, [])
          assert.deepStrictEqual(
            (yield* notifications.pushSubscriptions(user.id)).map((s) => s.endpoint),
            []
          )
          const rows = yield* sql<{ status: string }>`SELECT status FROM outbox_events`.pipe(Effect.orDie)
          assert.deepStrictEqual(
            rows.map((r) => r.status),
            ["delivered"]
          )
        }).pipe(Effect.provide(stack))
      }),
    60_000
  )
})
