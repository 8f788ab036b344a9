import { Context, type Effect } from "effect"
import type { OutboxEventId } from "../ids.ts"
import type { NewOutboxEvent, OutboxEvent } from "../outbox/OutboxEvent.ts"

/**
 * Notification events, written in the same transaction as the change they announce (so a
 * committed change always gets its notification and a rolled-back one never does), delivered
 * later by the worker at least once.
 */
export class Outbox extends Context.Service<
  Outbox,
  {
    /** Inserts a `pending` event available now, with a fresh `webhookId` (`newWebhookEventId`). */
    readonly add: (event: NewOutboxEvent, now: Date) => Effect.Effect<OutboxEvent>
    /**
     * Takes up to `limit` `pending` events with `availableAt <= now` (oldest first), sets their
     * `availableAt` to `now + leaseMs` (so a crashed worker's claim comes back) and returns them.
     * Concurrent callers never get the same event within a lease (PG: `FOR UPDATE SKIP LOCKED`).
     * An event this version cannot read (a kind or payload of a newer version, mid rolling deploy) is
     * leased but not returned, left `pending` for a version that reads it, with a warning naming it.
     */
    readonly claim: (now: Date, limit: number, leaseMs: number) => Effect.Effect<ReadonlyArray<OutboxEvent>>
    readonly markDelivered: (id: OutboxEventId, now: Date) => Effect.Effect<void>
    /**
     * Records a failed attempt (attempts + 1, lastError). With `retryAt` the event stays `pending`
     * and becomes available then; without it the event is `failed` for good.
     */
    readonly markFailed: (id: OutboxEventId, error: string, retryAt: Date | null) => Effect.Effect<void>
  }
>()("core/ports/Outbox") {}
