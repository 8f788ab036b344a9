import { Context, Effect } from "effect"
import type { IdempotencyBegin } from "../idempotency/IdempotencyRecord.ts"

/**
 * Stored `Idempotency-Key`s of money-moving requests (formance / Stripe style): the key with the
 * same request returns the first answer; with another request it is a conflict.
 * Keys are scoped (e.g. `user:<id>:orders.stars`), so two users' keys never collide.
 */
export class IdempotencyKeys extends Context.Service<IdempotencyKeys, {
  /**
   * Claims (scope, key) atomically (PG: `INSERT ... ON CONFLICT DO NOTHING`, then read):
   * - no record (or an abandoned one)  -> records "in progress" with `requestHash`, returns New
   * - completed, same hash             -> Replay with the stored response
   * - any state, other hash            -> Conflict
   * - in progress, same hash           -> InProgress (a record older than 10 minutes counts as
   *   abandoned and is taken over, so a crashed request does not block its key forever)
   */
  readonly begin: (scope: string, key: string, requestHash: string, now: Date) => Effect.Effect<IdempotencyBegin>
  /** Stores the (JSON-encodable) response and marks the key completed. Call inside the use case's transaction. */
  readonly complete: (scope: string, key: string, response: unknown, now: Date) => Effect.Effect<void>
  /** Forgets an in-progress key after a failure, so the request may be sent again. */
  readonly abandon: (scope: string, key: string) => Effect.Effect<void>
}>()("core/ports/IdempotencyKeys") {}
