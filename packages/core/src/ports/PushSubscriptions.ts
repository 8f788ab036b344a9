import { Context, Effect } from "effect"
import type { UserId } from "../ids.ts"
import type { PushSubscription } from "../push/PushSubscription.ts"

/** Browser Web Push subscriptions. */
export class PushSubscriptions extends Context.Service<PushSubscriptions, {
  /** Inserts, or replaces keys and owner of the same endpoint (endpoint is unique). */
  readonly upsert: (subscription: PushSubscription) => Effect.Effect<void>
  readonly listByUser: (userId: UserId) => Effect.Effect<ReadonlyArray<PushSubscription>>
  /** Drops an endpoint the push service answered 404/410 for. Idempotent. */
  readonly remove: (endpoint: string) => Effect.Effect<void>
}>()("core/ports/PushSubscriptions") {}
