import { Context, type Effect } from "effect"
import type { UserId } from "../ids.ts"
import type { PushSubscription } from "../push/PushSubscription.ts"

/** Browser Web Push subscriptions. */
export class PushSubscriptions extends Context.Service<
  PushSubscriptions,
  {
    /**
     * Inserts, or replaces the keys of the same endpoint when `subscription.userId` owns it; an endpoint
     * owned by another user is left as it is (`"taken"`: never moved between users). Then keeps only
     * the owner's `keep` newest subscriptions (the oldest ones beyond it are removed).
     */
    readonly upsert: (subscription: PushSubscription, keep: number) => Effect.Effect<"stored" | "taken">
    readonly listByUser: (userId: UserId) => Effect.Effect<ReadonlyArray<PushSubscription>>
    /** Drops an endpoint the push service answered 404/410 for. Idempotent. */
    readonly remove: (endpoint: string) => Effect.Effect<void>
  }
>()("core/ports/PushSubscriptions") {}
