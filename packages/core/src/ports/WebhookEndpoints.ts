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
    /** Removes every endpoint of the user (and their deliveries); how many. */
    readonly removeAllByUser: (userId: UserId) => Effect.Effect<number>
    /**
     * Inserts the deliveries due `now`; one already there for (endpoint, event id) is left as it is.
     * An endpoint that already has `cap.maxPending` pending gets the delivery as `failed` with
     * `cap.overflowError` instead (counted under the endpoint's lock, so concurrent calls keep the cap).
     */
    readonly enqueue: (
      deliveries: ReadonlyArray<NewWebhookDelivery>,
      cap: { readonly maxPending: number; readonly overflowError: string },
      now: Date
    ) => Effect.Effect<void>
    /**
     * Inserts a pending test delivery unless the endpoint already has `maxTests` pending ones: then
     * nothing, and the earliest next attempt among them.
     */
    readonly enqueueTest: (
      delivery: NewWebhookDelivery,
      maxTests: number,
      now: Date
    ) => Effect.Effect<{ readonly queued: true } | { readonly queued: false; readonly nextAttemptAt: Date | null }>
    /**
     * Takes due pending deliveries at `now`, at most one per endpoint and none of an endpoint that
     * has one in flight, endpoints served longest ago first (round-robin), up to `limit`. Each
     * delivery and its endpoint are leased until `now + leaseMs`, so concurrent workers never share
     * one and an endpoint never has two sends at once; `recordAttempt` frees the endpoint.
     */
    readonly claimDue: (
      now: Date,
      limit: number,
      leaseMs: number
    ) => Effect.Effect<ReadonlyArray<{ readonly delivery: WebhookDelivery; readonly endpoint: WebhookEndpoint }>>
    /**
     * Records an attempt: `delivered` (at `now`), `pending` again at `nextAttemptAt`, or `failed`
     * for good; attempts + 1 each time. Frees the delivery's endpoint for its next claim.
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
