import { Context, Effect, Layer } from "effect"
import type { OutboxEvent } from "../outbox/OutboxEvent.ts"
import { Webhooks } from "./Webhooks.ts"

/**
 * The hook notification delivery calls for every outbox event before its other channels: the
 * worker wires it to `Webhooks.fanOut`; elsewhere (tests of notifications alone) it does nothing.
 * Calling it again for a retried event adds no second delivery.
 */
export const WebhookFanOut = Context.Reference<(event: OutboxEvent) => Effect.Effect<void>>(
  "core/webhooks/WebhookFanOut",
  {
    defaultValue: () => () => Effect.void
  }
)

/** `WebhookFanOut` backed by `Webhooks`. */
export const WebhookFanOutLive = Layer.effect(
  WebhookFanOut,
  Effect.map(Effect.service(Webhooks), (webhooks) => webhooks.fanOut)
)
