import type { OutboxEvent } from "../outbox/OutboxEvent.ts"
import type { WebhookEventType } from "./Webhook.ts"

/** One event an integrator receives: its id (`webhook-id`), type and snake_case data. */
export interface WebhookEvent {
  readonly id: string
  readonly type: WebhookEventType | "webhook.test"
  readonly data: Readonly<Record<string, string | number | boolean | null>>
}

const order = (p: OutboxEvent["payload"]) => ({
  order_id: p["orderId"] ?? null,
  kind: p["kind"] ?? null,
  recipient: p["recipient"] ?? null
})

/**
 * The webhook events an outbox event announces (none for operators' and other events). A failed
 * order is refunded in the same transaction, so it yields `order.failed` and `order.refunded`.
 * The id is the one drawn when the outbox event was written (random), so the same event always has
 * the same `webhook-id`; events written before that carry `evt_<outbox id>` as they always did.
 */
export const webhookEventsOf = (event: OutboxEvent): ReadonlyArray<WebhookEvent> => {
  if (event.userId === null) return []
  const p = event.payload
  const id = event.webhookId ?? `evt_${event.id}`
  switch (event.kind) {
    case "order.completed":
      return [
        {
          id,
          type: "order.completed",
          data: {
            ...order(p),
            tx_id: p["txId"] ?? null,
            delivery: p["delivery"] ?? null,
            fragment_ref: p["fragmentRef"] ?? null
          }
        }
      ]
    case "order.failed": {
      const refunded = typeof p["refundedUzs"] === "number" ? p["refundedUzs"] : 0
      // `error_code` as the order's (`OrderFailure.ts`); null for events written before it was carried.
      const errorCode = typeof p["errorCode"] === "string" ? p["errorCode"] : null
      const failed: WebhookEvent = {
        id,
        type: "order.failed",
        data: { ...order(p), refunded_uzs: refunded, error_code: errorCode }
      }
      return refunded > 0
        ? [failed, { id: `${id}_refund`, type: "order.refunded", data: { ...order(p), amount_uzs: refunded } }]
        : [failed]
    }
    case "topup.paid":
      return [
        {
          id,
          type: "topup.credited",
          data: {
            topup_id: p["topupId"] ?? null,
            amount_uzs: p["amountUzs"] ?? null,
            balance_uzs: p["balanceUzs"] ?? null
          }
        }
      ]
    default:
      return []
  }
}

/** The body sent (and signed): `{type, timestamp, data}`, the timestamp the event's instant. */
export const webhookBody = (event: WebhookEvent, at: Date): string =>
  JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: event.data })
