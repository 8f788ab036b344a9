import { Context, Effect, Layer } from "effect"
import type { UserId } from "../ids.ts"
import { WebhookEndpoints } from "../ports/WebhookEndpoints.ts"
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointNotFound } from "./Webhook.ts"
import { Webhooks } from "./Webhooks.ts"

/** One endpoint as an operator sees it: where it points and how its newest delivery went. */
export interface WebhookOverview {
  readonly endpoint: WebhookEndpoint
  /** The newest delivery (any status), or null before the endpoint's first event. */
  readonly lastDelivery: WebhookDelivery | null
}

/**
 * Operators' view of a shopper's webhook endpoints and their removal (e.g. one that leaks data to a
 * third party, or hammers a dead host). Removal is the owner's own rule (`Webhooks.remove`), so an
 * operator removes exactly what the owner could; it is logged with both ids as an operator's act.
 */
export class WebhookOversight extends Context.Service<
  WebhookOversight,
  {
    /** The user's endpoints, oldest first, each with its newest delivery. */
    readonly ofUser: (userId: UserId) => Effect.Effect<ReadonlyArray<WebhookOverview>>
    /** Removes one endpoint of the user and its delivery log; `WebhookEndpointNotFound` if not theirs. */
    readonly remove: (userId: UserId, endpointId: number) => Effect.Effect<void, WebhookEndpointNotFound>
  }
>()("core/webhooks/WebhookOversight") {
  static readonly layer = Layer.effect(
    WebhookOversight,
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const store = yield* WebhookEndpoints

      const ofUser = Effect.fn("WebhookOversight.ofUser")(function* (userId: UserId) {
        const endpoints = yield* webhooks.list(userId)
        // At most MAX_ENDPOINTS_PER_USER endpoints: one short read each.
        return yield* Effect.forEach(endpoints, (endpoint) =>
          Effect.map(store.deliveries(endpoint.id, 1), (latest) => ({ endpoint, lastDelivery: latest[0] ?? null }))
        )
      })

      const remove = Effect.fn("WebhookOversight.remove")(function* (userId: UserId, endpointId: number) {
        yield* webhooks.remove(userId, endpointId)
        // The URL is not logged: an integrator may carry a token in it.
        yield* Effect.logInfo("webhook endpoint removed by an operator").pipe(
          Effect.annotateLogs({ user_id: userId, endpoint_id: endpointId, actor: "operator" })
        )
      })

      return WebhookOversight.of({ ofUser, remove })
    })
  )
}
