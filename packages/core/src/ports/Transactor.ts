import { Context, type Effect } from "effect"

/**
 * Runs a group of port calls atomically. Every money-moving use case runs all its storage calls
 * inside one `withTransaction`.
 *
 * Contract:
 * - all-or-nothing: if the effect fails (typed error or defect) or is interrupted, none of the
 *   writes made inside it are visible afterwards; if it succeeds, all of them are committed.
 * - nesting is allowed: an inner `withTransaction` joins the outer one (PG: savepoint; an inner
 *   failure that the outer effect catches rolls back only the inner part).
 * - isolation: concurrent transactions behave as if serialised for the rows they touch (PG: row
 *   locks / conditional updates in the adapters; memory: one global lock).
 * - an infrastructure failure (connection lost, serialisation failure after retries) is a defect.
 */
export class Transactor extends Context.Service<
  Transactor,
  {
    readonly withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  }
>()("core/ports/Transactor") {}
