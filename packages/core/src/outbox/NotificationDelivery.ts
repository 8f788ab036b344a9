import { Context, Effect, Layer, Option } from "effect"
import { Notifier, type NotifierError } from "../ports/Notifier.ts"
import { Users } from "../ports/Users.ts"
import { WebhookFanOut } from "../webhooks/WebhookFanOut.ts"
import { renderEvent } from "./Notices.ts"
import { Notifications } from "./Notifications.ts"
import type { OutboxEvent } from "./OutboxEvent.ts"

/** Who hears operators' events and how many events one round takes (the worker fills these from its config). */
export interface NotificationSettingsShape {
  /** Bot chats of the operators (`OPERATOR_CHAT_IDS`). */
  readonly operatorChatIds: ReadonlyArray<number>
  readonly batch: number
}

export const NotificationSettings = Context.Reference<NotificationSettingsShape>("core/outbox/NotificationSettings", {
  defaultValue: () => ({ operatorChatIds: [], batch: 20 })
})

/** What happened to one event. */
export type DeliveryOutcome = "delivered" | "retry"

/**
 * Delivers outbox events: a user's event to each of their push subscriptions and their bot chat,
 * an operators' event (no user) to the operator chats. An event is delivered when no channel
 * failed transiently; otherwise it is retried with backoff (so a channel that already took it may
 * see it again: at least once). A dead subscription (404/410) is removed, a blocked bot chat unlinked.
 */
export class NotificationDelivery extends Context.Service<
  NotificationDelivery,
  {
    readonly deliver: (event: OutboxEvent) => Effect.Effect<DeliveryOutcome>
    /** Claims up to the batch size of due events and delivers them; returns how many it took. */
    readonly runOnce: Effect.Effect<number>
  }
>()("core/outbox/NotificationDelivery") {
  static readonly layer = Layer.effect(
    NotificationDelivery,
    Effect.gen(function* () {
      const notifications = yield* Notifications
      const notifier = yield* Notifier
      const users = yield* Users
      const settings = yield* NotificationSettings
      const fanOut = yield* WebhookFanOut

      // undefined = done (sent, skipped, or given up for good); a string = transient failure.
      const settle = (sent: Effect.Effect<void, NotifierError>, onGone: Effect.Effect<void>) =>
        sent.pipe(
          Effect.as(undefined),
          Effect.catch((error) => {
            switch (error.reason) {
              case "Unavailable":
                // A push service still failing after the client's capped retries gives up THIS
                // subscription for this event: retrying the event would send it again to every
                // other subscription and chat that already took it. Bot messages retry the event.
                return error.channel === "push"
                  ? Effect.as(Effect.logWarning("web push given up for one subscription", error.message), undefined)
                  : Effect.succeed(`${error.channel}: ${error.message}`)
              case "Gone":
                return Effect.as(onGone, undefined)
              case "Rejected":
                return Effect.as(
                  Effect.logWarning(`notification refused by ${error.channel}`, error.message),
                  undefined
                )
              case "NotConfigured":
                return Effect.succeed(undefined)
            }
          })
        )

      const deliver = Effect.fn("NotificationDelivery.deliver")(function* (event: OutboxEvent) {
        // Integrators' webhooks first: queued once per endpoint, however often this event is retried.
        yield* fanOut(event)
        const { notice, text } = renderEvent(event)
        const sends: Array<Effect.Effect<string | undefined>> = []
        if (event.userId === null) {
          for (const chatId of settings.operatorChatIds)
            sends.push(settle(notifier.botMessage(chatId, text), Effect.void))
        } else {
          const userId = event.userId
          const subscriptions = yield* notifications.pushSubscriptions(userId)
          for (const subscription of subscriptions) {
            sends.push(
              settle(notifier.push(subscription, notice), notifications.dropPushEndpoint(subscription.endpoint))
            )
          }
          const user = yield* users.find(userId)
          const chatId = Option.isSome(user) ? user.value.botChatId : null
          if (chatId !== null) {
            sends.push(settle(notifier.botMessage(chatId, text), users.setBotChat(userId, null).pipe(Effect.ignore)))
          }
        }
        const failures = (yield* Effect.all(sends, { concurrency: 4 })).filter((f) => f !== undefined)
        if (failures.length === 0) {
          yield* notifications.delivered(event)
          return "delivered" as const
        }
        yield* notifications.failed(event, failures.join("; "))
        return "retry" as const
      })

      const runOnce = Effect.gen(function* () {
        const events = yield* notifications.claim(settings.batch)
        yield* Effect.forEach(events, deliver, { concurrency: 4, discard: true })
        return events.length
      }).pipe(Effect.withSpan("NotificationDelivery.runOnce"))

      return NotificationDelivery.of({ deliver, runOnce })
    })
  )
}
