import { Context, type Effect, type Option } from "effect"
import type { UserId } from "../ids.ts"
import type { NewWebhookDelivery, WebhookDelivery, WebhookEndpoint, WebhookEventType } from "../webhooks/Webhook.ts"

/** Storage of integrators' webhook endpoints and their deliveries. */
export class WebhookEndpoints extends Context.Service<
  WebhookEndpoints,
  {
    /** Adds an endpoint unless the user already has `max`: then `"full"`. */
    readonly create: (
      input: {
        readonly userId: UserId
        readonly url: string
        readonly secret: string
        readonly events: ReadonlyArray<WebhookEventType>
      },
      max: number,
      now: Date
    ) => Effect.Effect<WebhookEndpoint | "full">
    readonly listByUser: (userId: UserId) => Effect.Effect<ReadonlyArray<WebhookEndpoint>>
    /** The user's endpoints that subscribe to `type`. */
    readonly subscribed: (userId: UserId, type: WebhookEventType) => Effect.Effect<ReadonlyArray<WebhookEndpoint>>
    readonly find: (userId: UserId, id: number) => Effect.Effect<Option.Option<WebhookEndpoint>>
    /** Removes the endpoint and its deliveries; false when it was not the user's. */
    readonly remove: (userId: UserId, id: number) => Effect.Effect<boolean>
    readonly setSecret: (userId: UserId, id: number, secret: string) => Effect.Effect<Option.Option<WebhookEndpoint>>
    /** Inserts the deliveries due `now`; one already there for (endpoint, event id) is left as it is. */
    readonly enqueue: (deliveries: ReadonlyArray<NewWebhookDelivery>, now: Date) => Effect.Effect<void>
    /**
     * Takes up to `limit` pending deliveries due at `now` (oldest first) with their endpoints and
     * moves their `nextAttemptAt` to `now + leaseMs`, so concurrent workers never share one.
     */
    readonly claimDue: (
      now: Date,
      limit: number,
      leaseMs: number
    ) => Effect.Effect<ReadonlyArray<{ readonly delivery: WebhookDelivery; readonly endpoint: WebhookEndpoint }>>
    /**
     * Records an attempt: `delivered` (at `now`), `pending` again at `nextAttemptAt`, or `failed`
     * for good; attempts + 1 each time.
     */
    readonly recordAttempt: (
      id: number,
      outcome: {
        readonly status: "delivered" | "pending" | "failed"
        readonly statusCode: number | null
        readonly error: string | null
        readonly nextAttemptAt: Date | null
      },
      now: Date
    ) => Effect.Effect<void>
    /** The endpoint's deliveries, newest first. */
    readonly deliveries: (endpointId: number, limit: number) => Effect.Effect<ReadonlyArray<WebhookDelivery>>
  }
>()("core/ports/WebhookEndpoints") {}
