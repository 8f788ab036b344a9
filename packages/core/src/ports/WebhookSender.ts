import { Context, type Effect, Schema } from "effect"

/** One signed POST: `webhook-id`, `webhook-timestamp` (unix seconds) and the body the signature covers. */
export interface WebhookMessage {
  readonly id: string
  readonly timestamp: number
  readonly body: string
}

/**
 * No HTTP answer: `Refused` (the URL is not allowed, or the host resolves to a non-public address),
 * `Unreachable` (DNS, connection, TLS), `Timeout` (connected, but no answer in time). The message
 * is for operators' logs only: it may name addresses, so it never reaches an integrator.
 */
export class WebhookSendError extends Schema.TaggedError<WebhookSendError>()("WebhookSendError", {
  reason: Schema.Literals(["Refused", "Unreachable", "Timeout"]),
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
