import { WEBHOOK_EVENT_TYPES } from "@resale/core/webhooks/Webhook.ts"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { HandlerErrors } from "./Errors.ts"
import { ApiKeyHeader, Id, Int, Str } from "@resale/webkit/Fields.ts"
import { ApiKeyAuth } from "./Middleware.ts"

const Instant = Str.annotate({ description: "ISO 8601 date-time (UTC)." })
const Events = Schema.Array(Str).annotate({ description: `Event types: ${WEBHOOK_EVENT_TYPES.join(", ")}.` })

export const WebhookCreateRequest = Schema.Struct({
  url: Str.annotate({ description: "https URL of a public host that receives the POSTs." }),
  events: Schema.optionalKey(Events.annotate({ description: "The event types to receive; all when absent." }))
}).annotate({ identifier: "WebhookCreateRequest" })

export const WebhookEndpoint = Schema.Struct({
  id: Int,
  url: Str,
  events: Events,
  created_at: Instant
}).annotate({
  identifier: "WebhookEndpoint",
  description: "A registered endpoint (its secret is shown only when created or rotated)."
})

export const WebhookEndpointWithSecret = Schema.Struct({
  id: Int,
  url: Str,
  events: Events,
  created_at: Instant,
  secret: Str.annotate({ description: "`whsec_<base64>`: the HMAC key of `webhook-signature`; shown only now." })
}).annotate({ identifier: "WebhookEndpointWithSecret" })

export const WebhookEndpointList = Schema.Struct({ webhooks: Schema.Array(WebhookEndpoint) }).annotate({
  identifier: "WebhookEndpointList"
})

export const WebhookDeleted = Schema.Struct({ id: Int, deleted: Schema.Boolean }).annotate({
  identifier: "WebhookDeleted"
})

export const WebhookTestSent = Schema.Struct({
  event_id: Str.annotate({ description: "The `webhook-id` of the queued `webhook.test` event." })
}).annotate({ identifier: "WebhookTestSent" })

export const WebhookDeliveryLog = Schema.Struct({
  deliveries: Schema.Array(
    Schema.Struct({
      id: Int,
      event_id: Str,
      event: Str,
      status: Schema.Literals(["pending", "delivered", "failed"]),
      attempts: Int,
      last_status_code: Schema.NullOr(Int),
      last_error: Schema.NullOr(Str),
      next_attempt_at: Schema.NullOr(Instant),
      created_at: Instant,
      delivered_at: Schema.NullOr(Instant)
    })
  )
}).annotate({
  identifier: "WebhookDeliveryLog",
  description: "The endpoint's latest deliveries (up to 100), newest first."
})

const byId = { params: { webhook_id: Id }, headers: ApiKeyHeader, error: HandlerErrors }

/** The integrator's webhook endpoints (`X-API-Key`). */
export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("createWebhook", "/v2/api/webhooks", {
      headers: ApiKeyHeader,
      payload: WebhookCreateRequest,
      success: WebhookEndpointWithSecret,
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("listWebhooks", "/v2/api/webhooks", {
      headers: ApiKeyHeader,
      success: WebhookEndpointList,
      error: HandlerErrors
    }),
    HttpApiEndpoint.delete("deleteWebhook", "/v2/api/webhooks/:webhook_id", { ...byId, success: WebhookDeleted }),
    HttpApiEndpoint.post("rotateWebhookSecret", "/v2/api/webhooks/:webhook_id/rotate-secret", {
      ...byId,
      success: WebhookEndpointWithSecret
    }),
    HttpApiEndpoint.post("testWebhook", "/v2/api/webhooks/:webhook_id/test", { ...byId, success: WebhookTestSent }),
    HttpApiEndpoint.get("webhookDeliveries", "/v2/api/webhooks/:webhook_id/deliveries", {
      ...byId,
      success: WebhookDeliveryLog
    })
  )
  .middleware(ApiKeyAuth) {}
