import { Schema } from "effect"
import { UserId } from "../ids.ts"

/** A browser's Web Push subscription (the `PushSubscription.toJSON()` fields we need). */
export const PushSubscription = Schema.Struct({
  userId: UserId,
  /** Unique, and it never changes owner: re-subscribing it replaces its keys, for its owner only. */
  endpoint: Schema.String,
  p256dh: Schema.String,
  auth: Schema.String,
  createdAt: Schema.Date
})
export type PushSubscription = typeof PushSubscription.Type

/**
 * A subscription refused: `Malformed` (not `{endpoint, keys: {p256dh, auth}}`), `EndpointRefused`
 * (not https on a known push service), `KeysInvalid` (not a P-256 key and a 16-byte secret),
 * `OwnedByAnother` (the endpoint is registered to another account, and stays with it).
 */
export class PushSubscriptionInvalid extends Schema.TaggedError<PushSubscriptionInvalid>()("PushSubscriptionInvalid", {
  reason: Schema.Literals(["Malformed", "EndpointRefused", "KeysInvalid", "OwnedByAnother"]),
  message: Schema.String
}) {}
