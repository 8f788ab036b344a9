import type { WebhookDelivery } from "@resale/core"
import { webhookEndpointOut as endpointOut } from "@resale/wire/Dtos.ts"
import { Webhooks } from "@resale/core/webhooks/Webhooks.ts"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { CurrentUser } from "../api/Middleware.ts"
import { mapErrors } from "./ErrorMapping.ts"

const deliveryOut = (d: WebhookDelivery) => ({
  id: d.id,
  event_id: d.eventId,
  event: d.eventType,
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
  created_at: d.createdAt.toISOString(),
  delivered_at: d.deliveredAt?.toISOString() ?? null
})

const caller = Effect.map(Effect.service(CurrentUser), (u) => u.userId)

export const WebhooksHandlers = HttpApiBuilder.group(Api, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* Webhooks
    return handlers
      .handle("createWebhook", ({ payload }) =>
        Effect.gen(function* () {
          const created = yield* webhooks.register(yield* caller, payload)
          return { ...endpointOut(created), secret: created.secret }
        }).pipe(mapErrors)
      )
      .handle("listWebhooks", () =>
        Effect.gen(function* () {
          return { webhooks: (yield* webhooks.list(yield* caller)).map(endpointOut) }
        })
      )
      .handle("deleteWebhook", ({ params }) =>
        Effect.gen(function* () {
          yield* webhooks.remove(yield* caller, params.webhook_id)
          return { id: params.webhook_id, deleted: true }
        }).pipe(mapErrors)
      )
      .handle("rotateWebhookSecret", ({ params }) =>
        Effect.gen(function* () {
          const rotated = yield* webhooks.rotateSecret(yield* caller, params.webhook_id)
          return { ...endpointOut(rotated), secret: rotated.secret }
        }).pipe(mapErrors)
      )
      .handle("testWebhook", ({ params }) =>
        Effect.gen(function* () {
          return { event_id: yield* webhooks.sendTest(yield* caller, params.webhook_id) }
        }).pipe(mapErrors)
      )
      .handle("webhookDeliveries", ({ params }) =>
        Effect.gen(function* () {
          return { deliveries: (yield* webhooks.deliveries(yield* caller, params.webhook_id)).map(deliveryOut) }
        }).pipe(mapErrors)
      )
  })
)
