import { Context, Effect, Layer, Result, Schema } from "effect"
import { AccountCaps } from "../caps/CapSettings.ts"
import type { UserId } from "../ids.ts"
import { BotUpdates } from "../ports/BotUpdates.ts"
import { Outbox } from "../ports/Outbox.ts"
import { PushSubscriptions } from "../ports/PushSubscriptions.ts"
import { checkEndpoint, checkKeys, PushPolicy } from "../push/PushEndpointRules.ts"
import { type PushSubscription, PushSubscriptionInvalid } from "../push/PushSubscription.ts"
import { addMillis, currentDate } from "../Time.ts"
import type { OutboxEvent } from "./OutboxEvent.ts"

/** Delivery attempts before an event is given up. */
export const MAX_DELIVERY_ATTEMPTS = 10
/** How long a claimed event stays invisible to other workers. */
export const CLAIM_LEASE_MS = 60_000

const BrowserSubscription = Schema.Struct({
  endpoint: Schema.String,
  keys: Schema.Struct({ p256dh: Schema.String, auth: Schema.String })
})

/** Push subscriptions, delivery bookkeeping of the outbox, and bot update de-duplication. */
export class Notifications extends Context.Service<
  Notifications,
  {
    /**
     * Registers a browser's `PushSubscription.toJSON()` (extra properties are ignored): the endpoint
     * must be https on a known push service (`PushPolicy`), the keys a P-256 point and a 16-byte
     * secret; an endpoint never moves to another account; the owner keeps its newest
     * `AccountCaps.pushSubscriptions` browsers.
     */
    readonly subscribePush: (userId: UserId, json: unknown) => Effect.Effect<PushSubscription, PushSubscriptionInvalid>
    readonly pushSubscriptions: (userId: UserId) => Effect.Effect<ReadonlyArray<PushSubscription>>
    /** Drops an endpoint the push service no longer knows (404 / 410). */
    readonly dropPushEndpoint: (endpoint: string) => Effect.Effect<void>
    /** Worker: takes up to `limit` undelivered events. */
    readonly claim: (limit: number) => Effect.Effect<ReadonlyArray<OutboxEvent>>
    readonly delivered: (event: OutboxEvent) => Effect.Effect<void>
    /** Schedules a retry with backoff, or gives up after `MAX_DELIVERY_ATTEMPTS`. */
    readonly failed: (event: OutboxEvent, error: string) => Effect.Effect<void>
    /** True the first time a bot update id is seen (Telegram re-delivers). */
    readonly firstSeenBotUpdate: (updateId: number) => Effect.Effect<boolean>
  }
>()("core/outbox/Notifications") {
  static readonly layer = Layer.effect(
    Notifications,
    Effect.gen(function* () {
      const push = yield* PushSubscriptions
      const outbox = yield* Outbox
      const botUpdates = yield* BotUpdates
      // Read when the service is built, from config at the composition root.
      const policy = yield* PushPolicy
      const caps = yield* AccountCaps

      const subscribePush = Effect.fn("Notifications.subscribePush")(function* (userId: UserId, json: unknown) {
        const parsed = yield* Schema.decodeUnknownEffect(BrowserSubscription)(json).pipe(
          Effect.mapError(
            () =>
              new PushSubscriptionInvalid({ reason: "Malformed", message: "expected {endpoint, keys: {p256dh, auth}}" })
          )
        )
        const endpoint = checkEndpoint(parsed.endpoint, policy)
        if (Result.isFailure(endpoint))
          return yield* new PushSubscriptionInvalid({ reason: "EndpointRefused", message: endpoint.failure })
        const keys = checkKeys(parsed.keys.p256dh, parsed.keys.auth)
        if (Result.isFailure(keys))
          return yield* new PushSubscriptionInvalid({ reason: "KeysInvalid", message: keys.failure })
        const subscription: PushSubscription = {
          userId,
          endpoint: endpoint.success.href,
          p256dh: parsed.keys.p256dh,
          auth: parsed.keys.auth,
          createdAt: yield* currentDate
        }
        if ((yield* push.upsert(subscription, caps.pushSubscriptions)) === "taken") {
          return yield* new PushSubscriptionInvalid({
            reason: "OwnedByAnother",
            message: "this push subscription is registered to another account"
          })
        }
        return subscription
      })

      const pushSubscriptions = Effect.fn("Notifications.pushSubscriptions")(function* (userId: UserId) {
        return yield* push.listByUser(userId)
      })

      const dropPushEndpoint = Effect.fn("Notifications.dropPushEndpoint")(function* (endpoint: string) {
        yield* push.remove(endpoint)
      })

      const claim = Effect.fn("Notifications.claim")(function* (limit: number) {
        return yield* outbox.claim(yield* currentDate, limit, CLAIM_LEASE_MS)
      })

      const delivered = Effect.fn("Notifications.delivered")(function* (event: OutboxEvent) {
        yield* outbox.markDelivered(event.id, yield* currentDate)
      })

      const failed = Effect.fn("Notifications.failed")(function* (event: OutboxEvent, error: string) {
        const attempts = event.attempts + 1
        const retryAt =
          attempts >= MAX_DELIVERY_ATTEMPTS
            ? null
            : addMillis(yield* currentDate, Math.min(3_600_000, 10_000 * 2 ** (attempts - 1)))
        yield* outbox.markFailed(event.id, error.slice(0, 500), retryAt)
      })

      const firstSeenBotUpdate = Effect.fn("Notifications.firstSeenBotUpdate")(function* (updateId: number) {
        return yield* botUpdates.markSeen(updateId, yield* currentDate)
      })

      return Notifications.of({
        subscribePush,
        pushSubscriptions,
        dropPushEndpoint,
        claim,
        delivered,
        failed,
        firstSeenBotUpdate
      })
    })
  )
}
