import { Context, Effect } from "effect"
import type { IdempotencyBegin } from "../idempotency/IdempotencyRecord.ts"

/**
 * Stored `Idempotency-Key`s of money-moving requests (formance / Stripe style): the key with the
 * same request returns the first answer; with another request it is a conflict.
 * Keys are scoped to their owner (`user:<id>`, `operator`), so two users' keys never collide, and
 * one key serves one endpoint of its owner: the same key on another endpoint is a conflict.
 */
export class IdempotencyKeys extends Context.Service<
  IdempotencyKeys,
  {
    /**
     * Claims (scope, key) atomically (PG: `INSERT ... ON CONFLICT DO NOTHING`, then read):
     * - no record (or an abandoned one)  -> records "in progress" with `requestHash`, returns New
     * - completed, same hash             -> Replay with the stored response
     * - any state, other endpoint        -> Conflict OtherEndpoint
     * - any state, other hash            -> Conflict OtherRequest
     * - in progress, same hash           -> InProgress (a record older than 10 minutes counts as
     *   abandoned and is taken over, so a crashed request does not block its key forever)
     * - a record older than `IDEMPOTENCY_KEY_TTL_MS` counts as absent (the key expired)
     */
    readonly begin: (
      scope: string,
      key: string,
      endpoint: string,
      requestHash: string,
      now: Date
    ) => Effect.Effect<IdempotencyBegin>
    /** Stores the (JSON-encodable) response and marks the key completed. Call inside the use case's transaction. */
    readonly complete: (scope: string, key: string, response: unknown, now: Date) => Effect.Effect<void>
    /** Forgets an in-progress key after a failure, so the request may be sent again. */
    readonly abandon: (scope: string, key: string) => Effect.Effect<void>
    /** Deletes the records started before `before` (expired keys); returns how many. */
    readonly prune: (before: Date) => Effect.Effect<number>
  }
>()("core/ports/IdempotencyKeys") {}
