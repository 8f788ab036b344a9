import { Schema } from "effect"
import { UserId } from "../ids.ts"

/** A browser's Web Push subscription (the `PushSubscription.toJSON()` fields we need). */
export const PushSubscription = Schema.Struct({
  userId: UserId,
  /** Unique: re-subscribing the same endpoint replaces its keys and owner. */
  endpoint: Schema.String,
  p256dh: Schema.String,
  auth: Schema.String,
  createdAt: Schema.Date
})
export type PushSubscription = typeof PushSubscription.Type

export class PushSubscriptionInvalid extends Schema.TaggedError<PushSubscriptionInvalid>()("PushSubscriptionInvalid", {
  message: Schema.String
}) {}
