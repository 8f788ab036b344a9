import { Schema } from "effect"
import type { UserId } from "../ids.ts"
import { WebhookUrlRefusalReason } from "./WebhookTargets.ts"

/** The event types an integrator may subscribe to (`webhook.test` is only ever sent on request). */
export const WEBHOOK_EVENT_TYPES = ["order.completed", "order.failed", "order.refunded", "topup.credited"] as const
export const WebhookEventType = Schema.Literals(WEBHOOK_EVENT_TYPES)
export type WebhookEventType = typeof WebhookEventType.Type

/** Endpoints one account may register at once. */
export const MAX_ENDPOINTS_PER_USER = 5

/** `webhook.test` events one endpoint may have waiting at once; more answer 429. */
export const MAX_PENDING_TESTS_PER_ENDPOINT = 3

/**
 * Undelivered events one endpoint may have waiting. Past it a new event is not queued: it is logged
 * at once as failed (`DELIVERY_OVERFLOW_ERROR`), so a dead endpoint's backlog stays bounded, what it
 * already has keeps its order, and the integrator sees in the log what to fetch through the API.
 */
export const MAX_PENDING_PER_ENDPOINT = 500
export const DELIVERY_OVERFLOW_ERROR = `not queued: ${MAX_PENDING_PER_ENDPOINT} deliveries were already waiting`

/** An integrator's endpoint; `secret` is `whsec_<base64 of 24 random bytes>`. */
export interface WebhookEndpoint {
  readonly id: number
  readonly userId: UserId
  readonly url: string
  readonly secret: string
  /** The subscribed types; every type when it lists all of them. */
  readonly events: ReadonlyArray<WebhookEventType>
  readonly createdAt: Date
}

export type WebhookDeliveryStatus = "pending" | "delivered" | "failed"

/**
 * One event for one endpoint. `eventId` (`evt_...`) is the `webhook-id` the receiver de-duplicates on;
 * it is unique per endpoint, so fanning the same outbox event out twice adds nothing.
 */
export interface WebhookDelivery {
  readonly id: number
  readonly endpointId: number
  readonly eventId: string
  readonly eventType: string
  /** The exact JSON body that is signed and sent on every attempt. */
  readonly body: string
  readonly status: WebhookDeliveryStatus
  readonly attempts: number
  readonly lastStatusCode: number | null
  readonly lastError: string | null
  readonly nextAttemptAt: Date | null
  readonly createdAt: Date
  readonly deliveredAt: Date | null
}

/** A delivery to add: the endpoint, its event id and type, the body. */
export interface NewWebhookDelivery {
  readonly endpointId: number
  readonly eventId: string
  readonly eventType: string
  readonly body: string
}

/**
 * A registration refused: `UrlRefused` (not an https URL of a public host), `EventsInvalid` (an
 * unknown or empty event list), `TooMany` (the account has `MAX_ENDPOINTS_PER_USER`).
 */
export class WebhookEndpointInvalid extends Schema.TaggedError<WebhookEndpointInvalid>()("WebhookEndpointInvalid", {
  reason: Schema.Literals(["UrlRefused", "EventsInvalid", "TooMany"]),
  message: Schema.String,
  /** Why the URL was refused (`UrlRefused` only). */
  refusal: Schema.optionalKey(WebhookUrlRefusalReason)
}) {}

/** The endpoint already has `MAX_PENDING_TESTS_PER_ENDPOINT` test events waiting; one may settle in `retryAfterSeconds`. */
export class WebhookTestsPending extends Schema.TaggedError<WebhookTestsPending>()("WebhookTestsPending", {
  endpointId: Schema.Number,
  limit: Schema.Number,
  retryAfterSeconds: Schema.Number
}) {}

/** No endpoint with this id belongs to the caller. */
export class WebhookEndpointNotFound extends Schema.TaggedError<WebhookEndpointNotFound>()("WebhookEndpointNotFound", {
  endpointId: Schema.Number
}) {}
