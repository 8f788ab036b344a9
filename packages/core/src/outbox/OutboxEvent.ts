import { Schema } from "effect"
import { OutboxEventId, UserId } from "../ids.ts"

/** Notification kinds; the worker turns each into web push / bot messages. */
export const OutboxKind = Schema.Literals([
  "topup.paid",
  "topup.rejected",
  "topup.expired",
  "topup.review",
  "payment.unmatched",
  "order.completed",
  "order.failed",
  "order.attention",
  "ticket.answered",
  "ticket.created",
  "balance.adjusted"
])
export type OutboxKind = typeof OutboxKind.Type

export const OutboxStatus = Schema.Literals(["pending", "delivered", "failed"])
export type OutboxStatus = typeof OutboxStatus.Type

/** JSON-safe payload: ids, amounts and short texts only (never secrets). */
export const OutboxPayload = Schema.Record(
  Schema.String,
  Schema.Union([Schema.String, Schema.Number, Schema.Boolean, Schema.Null])
)
export type OutboxPayload = typeof OutboxPayload.Type

export const NewOutboxEvent = Schema.Struct({
  kind: OutboxKind,
  /** The user to notify; null = operators. */
  userId: Schema.NullOr(UserId),
  payload: OutboxPayload
})
export type NewOutboxEvent = typeof NewOutboxEvent.Type

export const OutboxEvent = Schema.Struct({
  id: OutboxEventId,
  kind: OutboxKind,
  userId: Schema.NullOr(UserId),
  payload: OutboxPayload,
  status: OutboxStatus,
  attempts: Schema.Int,
  lastError: Schema.NullOr(Schema.String),
  /** Not claimable before this instant (retry backoff, or the lease of a current claim). */
  availableAt: Schema.Date,
  createdAt: Schema.Date,
  deliveredAt: Schema.NullOr(Schema.Date),
  /** The id of the webhook events it announces (`newWebhookEventId`); absent on events written before. */
  webhookId: Schema.optionalKey(Schema.NullOr(Schema.String))
})
export type OutboxEvent = typeof OutboxEvent.Type
