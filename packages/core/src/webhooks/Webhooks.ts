import { Context, Effect, Layer, Option, Result } from "effect"
import { Base64 } from "effect/encoding"
import type { UserId } from "../ids.ts"
import type { OutboxEvent } from "../outbox/OutboxEvent.ts"
import { randomBytes, randomToken } from "../Secrets.ts"
import { currentDate } from "../Time.ts"
import { TEST_RETRY_WINDOW_MS } from "./WebhookDispatch.ts"
import {
  DELIVERY_OVERFLOW_ERROR,
  MAX_ENDPOINTS_PER_USER,
  MAX_PENDING_PER_ENDPOINT,
  MAX_PENDING_TESTS_PER_ENDPOINT,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
  WebhookEndpointInvalid,
  WebhookEndpointNotFound,
  type WebhookEventType,
  WebhookTestsPending
} from "./Webhook.ts"
import { WebhookEndpoints } from "../ports/WebhookEndpoints.ts"
import { webhookBody, webhookEventsOf } from "./WebhookEvents.ts"
import { checkWebhookUrl, WebhookPolicy } from "./WebhookTargets.ts"

/** A new signing secret: `whsec_` and the base64 of 24 random bytes (Standard Webhooks' format). */
const newSecret = Effect.map(randomBytes(24), (bytes) => `whsec_${Base64.encode(bytes)}`)

/** Deliveries shown in an endpoint's log. */
export const DELIVERY_LOG_LIMIT = 100

/** An integrator's webhook endpoints (API key surface) and the fan-out of outbox events to them. */
export class Webhooks extends Context.Service<
  Webhooks,
  {
    /** Registers an https URL of a public host for `events` (all when absent); the secret is shown only here. */
    readonly register: (
      userId: UserId,
      input: { readonly url: string; readonly events?: ReadonlyArray<string> | undefined }
    ) => Effect.Effect<WebhookEndpoint, WebhookEndpointInvalid>
    readonly list: (userId: UserId) => Effect.Effect<ReadonlyArray<WebhookEndpoint>>
    readonly remove: (userId: UserId, id: number) => Effect.Effect<void, WebhookEndpointNotFound>
    /** A new secret; the old one stops signing at once. */
    readonly rotateSecret: (userId: UserId, id: number) => Effect.Effect<WebhookEndpoint, WebhookEndpointNotFound>
    /** Removes every endpoint of the account (a rotated API key's); how many. */
    readonly removeAll: (userId: UserId) => Effect.Effect<number>
    /** Queues a `webhook.test` event for the endpoint (at most `MAX_PENDING_TESTS_PER_ENDPOINT` waiting); its event id. */
    readonly sendTest: (
      userId: UserId,
      id: number
    ) => Effect.Effect<string, WebhookEndpointNotFound | WebhookTestsPending>
    readonly deliveries: (
      userId: UserId,
      id: number
    ) => Effect.Effect<ReadonlyArray<WebhookDelivery>, WebhookEndpointNotFound>
    /** One delivery per subscribed endpoint of the event's user; a repeated fan-out adds nothing. */
    readonly fanOut: (event: OutboxEvent) => Effect.Effect<void>
  }
>()("core/webhooks/Webhooks") {
  static readonly layer = Layer.effect(
    Webhooks,
    Effect.gen(function* () {
      const store = yield* WebhookEndpoints
      const policy = yield* WebhookPolicy

      const owned = (userId: UserId, id: number) =>
        Effect.flatMap(
          store.find(userId, id),
          Option.match({
            onNone: () => Effect.fail(new WebhookEndpointNotFound({ endpointId: id })),
            onSome: Effect.succeed
          })
        )

      const register = Effect.fn("Webhooks.register")(function* (
        userId: UserId,
        input: { readonly url: string; readonly events?: ReadonlyArray<string> | undefined }
      ) {
        const url = checkWebhookUrl(input.url, policy)
        if (Result.isFailure(url))
          return yield* new WebhookEndpointInvalid({
            reason: "UrlRefused",
            message: url.failure.message,
            refusal: url.failure.reason
          })
        const events = input.events ?? WEBHOOK_EVENT_TYPES
        const unknown = events.filter((e) => !(WEBHOOK_EVENT_TYPES as ReadonlyArray<string>).includes(e))
        if (events.length === 0 || unknown.length > 0) {
          return yield* new WebhookEndpointInvalid({
            reason: "EventsInvalid",
            message: `events must be a non-empty list of ${WEBHOOK_EVENT_TYPES.join(", ")}`
          })
        }
        const created = yield* store.create(
          {
            userId,
            url: url.success.href,
            secret: yield* newSecret,
            events: [...new Set(events as ReadonlyArray<WebhookEventType>)]
          },
          MAX_ENDPOINTS_PER_USER,
          yield* currentDate
        )
        if (created === "full") {
          return yield* new WebhookEndpointInvalid({
            reason: "TooMany",
            message: `at most ${MAX_ENDPOINTS_PER_USER} webhook endpoints per account; delete one first`
          })
        }
        return created
      })

      const list = Effect.fn("Webhooks.list")(function* (userId: UserId) {
        return yield* store.listByUser(userId)
      })

      const remove = Effect.fn("Webhooks.remove")(function* (userId: UserId, id: number) {
        if (!(yield* store.remove(userId, id))) return yield* new WebhookEndpointNotFound({ endpointId: id })
      })

      const removeAll = Effect.fn("Webhooks.removeAll")(function* (userId: UserId) {
        return yield* store.removeAllByUser(userId)
      })

      const rotateSecret = Effect.fn("Webhooks.rotateSecret")(function* (userId: UserId, id: number) {
        const updated = yield* store.setSecret(userId, id, yield* newSecret)
        if (Option.isNone(updated)) return yield* new WebhookEndpointNotFound({ endpointId: id })
        return updated.value
      })

      const sendTest = Effect.fn("Webhooks.sendTest")(function* (userId: UserId, id: number) {
        const endpoint = yield* owned(userId, id)
        const now = yield* currentDate
        const eventId = `evt_test_${yield* randomToken(12)}`
        const body = webhookBody({ id: eventId, type: "webhook.test", data: { endpoint_id: endpoint.id } }, now)
        const queued = yield* store.enqueueTest(
          { endpointId: endpoint.id, eventId, eventType: "webhook.test", body },
          MAX_PENDING_TESTS_PER_ENDPOINT,
          now
        )
        if (!queued.queued) {
          // A waiting test settles at its next attempt at the latest within its short retry window.
          const wait = queued.nextAttemptAt === null ? 1 : (queued.nextAttemptAt.getTime() - now.getTime()) / 1000
          return yield* new WebhookTestsPending({
            endpointId: endpoint.id,
            limit: MAX_PENDING_TESTS_PER_ENDPOINT,
            retryAfterSeconds: Math.min(TEST_RETRY_WINDOW_MS / 1000, Math.max(1, Math.ceil(wait)))
          })
        }
        return eventId
      })

      const deliveries = Effect.fn("Webhooks.deliveries")(function* (userId: UserId, id: number) {
        const endpoint = yield* owned(userId, id)
        return yield* store.deliveries(endpoint.id, DELIVERY_LOG_LIMIT)
      })

      const fanOut = Effect.fn("Webhooks.fanOut")(function* (event: OutboxEvent) {
        if (event.userId === null) return
        const userId = event.userId
        const now = yield* currentDate
        for (const webhook of webhookEventsOf(event)) {
          if (webhook.type === "webhook.test") continue
          const endpoints = yield* store.subscribed(userId, webhook.type)
          const body = webhookBody(webhook, event.createdAt)
          yield* store.enqueue(
            endpoints.map((e) => ({ endpointId: e.id, eventId: webhook.id, eventType: webhook.type, body })),
            { maxPending: MAX_PENDING_PER_ENDPOINT, overflowError: DELIVERY_OVERFLOW_ERROR },
            now
          )
        }
      })

      return Webhooks.of({ register, list, remove, removeAll, rotateSecret, sendTest, deliveries, fanOut })
    })
  )
}
