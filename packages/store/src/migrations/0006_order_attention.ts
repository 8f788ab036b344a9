import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Unknown outcomes end: an order whose delivery stays unknown past the limit moves to
 * `needs_attention` (no more retries) with what the checks found (`evidence`); `unknown_since` and
 * `unknown_attempts` count the current run of unknown checks.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE orders DROP CONSTRAINT orders_status_check`
  yield* sql`
    ALTER TABLE orders ADD CONSTRAINT orders_status_check
    CHECK (status IN ('queued', 'processing', 'completed', 'failed', 'needs_attention'))`
  yield* sql`
    ALTER TABLE orders
      ADD COLUMN unknown_since     timestamptz,
      ADD COLUMN unknown_attempts  integer NOT NULL DEFAULT 0 CHECK (unknown_attempts >= 0),
      ADD COLUMN evidence          jsonb CHECK (evidence IS NULL OR jsonb_typeof(evidence) = 'object')`
  // The operators' queue.
  yield* sql`CREATE INDEX orders_attention_idx ON orders (id) WHERE status = 'needs_attention'`
})
