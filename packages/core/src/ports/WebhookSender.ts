import { Context, type Effect, Schema } from "effect"

/** One signed POST: `webhook-id`, `webhook-timestamp` (unix seconds) and the body the signature covers. */
export interface WebhookMessage {
  readonly id: string
  readonly timestamp: number
  readonly body: string
}

/**
 * No HTTP answer: `Refused` (the host resolves to a non-public address), `Unreachable` (DNS,
 * connection, TLS or timeout).
 */
export class WebhookSendError extends Schema.TaggedError<WebhookSendError>()("WebhookSendError", {
  reason: Schema.Literals(["Refused", "Unreachable"]),
  message: Schema.String
}) {}

/** Signs (Standard Webhooks, HMAC-SHA256 with the endpoint's secret) and posts one message; the answer's status. */
export class WebhookSender extends Context.Service<
  WebhookSender,
  {
    readonly send: (
      target: { readonly url: string; readonly secret: string },
      message: WebhookMessage
    ) => Effect.Effect<number, WebhookSendError>
  }
>()("core/ports/WebhookSender") {}
