/**
 * Notifications from the outbox (written in the same transaction as the event) over real wire
 * formats: web push received and decrypted by a local push service with the subscription's keys,
 * bot messages received by a local Bot API server; 410 removes a subscription, a blocked bot chat is
 * unlinked, a failed channel is retried.
 */
import { assert, describe, it } from "@effect/vitest"
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { Notifications } from "@resale/core/outbox/Notifications.ts"
import { PushPolicy } from "@resale/core/push/PushEndpointRules.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { NotificationDelivery } from "@resale/core/outbox/NotificationDelivery.ts"
import { notifierLayer, RETRIES } from "@resale/world"
import { WorkerConfig } from "@resale/worker/WorkerConfig.ts"
import { NotificationSettingsLive } from "@resale/worker/WorkerLive.ts"
import { Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import webpush from "web-push"
import { startLocalBotApi } from "./support/LocalBotApi.ts"
import { startLocalPushService } from "./support/LocalPushService.ts"

const BOT_TOKEN = "123456:worker-test-token"
const OPERATOR_CHAT = 4242
const USER_CHAT = 1111

const drainOutbox = Effect.gen(function* () {
  const delivery = yield* NotificationDelivery
  let total = 0
  while (true) {
    const n = yield* delivery.runOnce
    if (n === 0) return total
    total += n
  }
})

const outboxRows = Effect.gen(function* () {
  const sql = yield* SqlClient
  return yield* sql<{ kind: string; status: string; attempts: number; last_error: string | null }>`
    SELECT kind, status, attempts, last_error FROM outbox_events ORDER BY id`
}).pipe(Effect.orDie)

describe("notifications", () => {
  it.live(
    "web push decrypted by the push service, bot messages, 410 removes, blocked chat unlinks, failures retry",
    () =>
      Effect.gen(function* () {
        const push = yield* startLocalPushService
        const bot = yield* startLocalBotApi
        const vapid = webpush.generateVAPIDKeys()
        const outside = {
          sandbox: false,
          dataDir: ".data/test",
          vapid: Option.some({ publicKey: vapid.publicKey, privateKey: Redacted.make(vapid.privateKey) }),
          vapidSubject: "mailto:operator@example.invalid",
          botToken: Option.some(Redacted.make(BOT_TOKEN)),
          telegramApiUrl: bot.url
        }
        const settings = WorkerConfig.layerTest({ ...outside, operatorChatIds: [OPERATOR_CHAT] })
        const stack = NotificationDelivery.layer.pipe(
          Layer.provide(NotificationSettingsLive),
          Layer.provideMerge(notifierLayer(outside)),
          Layer.provideMerge(settings),
          Layer.provideMerge(CoreServices),
          Layer.provideMerge(IsolatedPostgres.layerStore),
          // The local push service speaks plain http on loopback: allowed for this test only.
          Layer.provideMerge(Layer.succeed(PushPolicy)({ allowedHosts: ["127.0.0.1"], unsafeLocalDelivery: true }))
        )

        yield* Effect.gen(function* () {
          const accounts = yield* Accounts
          const notifications = yield* Notifications
          const topups = yield* TopupService
          const tickets = yield* TicketService
          const user = yield* accounts.signIn({
            telegramId: 555_001,
            username: "notified",
            firstName: "N",
            photoUrl: null
          })
          yield* accounts.linkBotChat(user.id, USER_CHAT)
          const live = push.subscribe()
          const gone = push.subscribe()
          yield* notifications.subscribePush(user.id, { ...live, expirationTime: null })
          yield* notifications.subscribePush(user.id, gone)
          push.answer(gone.endpoint, 410)

          // Events written with their changes: a credited top-up, a new ticket (operators), an answer.
          const topup = yield* topups.create(user.id, 50_000)
          yield* topups.approve(topup.id, "ok")
          const { ticket } = yield* tickets.create(user.id, { subject: "Where are my stars?", body: "hello" })
          yield* tickets.answer(ticket.id, "On their way")
          assert.strictEqual(yield* drainOutbox, 3)

          // The browser decrypted both of its notices; the VAPID token was for this push service.
          assert.deepStrictEqual(push.refused, [])
          const titles = push.received.map((r) => (r.payload as { title: string }).title)
          assert.deepStrictEqual(titles.toSorted(), ["Support answered", "Top-up credited"])
          const credited = push.received.find((r) => (r.payload as { title: string }).title === "Top-up credited")!
          assert.strictEqual(credited.endpoint, new URL(live.endpoint).pathname)
          assert.include(
            (credited.payload as { body: string }).body,
            `${topup.payableUzs.toString().replace(/\B(?=(\d{3})+(?!\d))/g, " ")} UZS`
          )
          assert.strictEqual(credited.vapidAudience, push.origin)
          assert.strictEqual(credited.vapidPublicKey, vapid.publicKey)
          // 410: the dead subscription is gone, the live one stays.
          assert.deepStrictEqual(
            (yield* notifications.pushSubscriptions(user.id)).map((s) => s.endpoint),
            [live.endpoint]
          )
          // Bot: the user's chat got both, the operator chat the new ticket; the token was in the path.
          // (events are delivered concurrently: compare without order)
          assert.deepStrictEqual(
            bot.messages.map((m) => `${m.chatId} ${m.text.split("\n")[0]}`).sort(),
            [`${USER_CHAT} Support answered`, `${USER_CHAT} Top-up credited`, `${OPERATOR_CHAT} New ticket`].sort()
          )
          assert.isTrue(bot.messages.every((m) => m.token === BOT_TOKEN))
          assert.deepStrictEqual(
            (yield* outboxRows).map((r) => r.status),
            ["delivered", "delivered", "delivered"]
          )

          // One 500 from the Bot API is absorbed by the outbound policy (retried in the same call).
          bot.failing.next = 1
          const sent = bot.messages.length
          yield* tickets.answer(ticket.id, "Still there?")
          assert.strictEqual(yield* drainOutbox, 1)
          assert.strictEqual((yield* outboxRows).at(-1)?.status, "delivered")
          assert.deepStrictEqual([bot.failing.next, bot.messages.length], [0, sent + 1])

          // Failing past the policy's retries: the event stays pending with the error and is delivered later.
          bot.failing.next = RETRIES + 1
          const rejected = yield* topups.create(user.id, 20_000)
          yield* topups.reject(rejected.id, "wrong amount")
          assert.strictEqual(yield* drainOutbox, 1)
          const pending = (yield* outboxRows).at(-1)!
          assert.deepStrictEqual([pending.kind, pending.status, pending.attempts], ["topup.rejected", "pending", 1])
          assert.include(pending.last_error ?? "", "bot: Bot API answered 500")
          const sql = yield* SqlClient
          yield* sql`UPDATE outbox_events SET available_at = now() - interval '1 second' WHERE status = 'pending'`.pipe(
            Effect.orDie
          )
          assert.strictEqual(yield* drainOutbox, 1)
          assert.strictEqual((yield* outboxRows).at(-1)?.status, "delivered")
          assert.strictEqual(bot.messages.at(-1)?.text.split("\n")[0], "Top-up rejected")

          // The user blocks the bot: the chat is unlinked, the event counts as delivered.
          bot.blocked.add(USER_CHAT)
          yield* tickets.answer(ticket.id, "Anything else?")
          assert.strictEqual(yield* drainOutbox, 1)
          assert.strictEqual((yield* outboxRows).at(-1)?.status, "delivered")
          assert.isNull((yield* accounts.find(user.id)).botChatId)
        }).pipe(Effect.provide(stack))
      }),
    60_000
  )
})
