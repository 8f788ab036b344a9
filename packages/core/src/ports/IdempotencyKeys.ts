import { Context, type Effect } from "effect"
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
     * Claims (scope, key) for the caller's transaction, without waiting:
     * - another live transaction holds the key -> InProgress (PG: its advisory lock; the holder's
     *   claim is not committed yet, so a holder that dies or fails frees the key at once)
     * - no record (or an expired one)    -> records "in progress" with `requestHash`, returns New
     * - completed, same hash             -> Replay with the stored response
     * - any state, other endpoint        -> Conflict OtherEndpoint
     * - any state, other hash            -> Conflict OtherRequest
     * - a committed "in progress" record, same hash (a claim made outside a transaction, which no
     *   session holds) -> InProgress for 10 minutes, then taken over
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
    /** Forgets a committed in-progress claim (one made outside a transaction), so the request may be sent again. */
    readonly abandon: (scope: string, key: string) => Effect.Effect<void>
    /** Deletes the records started before `before` (expired keys); returns how many. */
    readonly prune: (before: Date) => Effect.Effect<number>
  }
>()("core/ports/IdempotencyKeys") {}
