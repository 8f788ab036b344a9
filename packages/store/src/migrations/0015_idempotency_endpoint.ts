import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * An Idempotency-Key belongs to its owner across every money-moving endpoint: the record names the
 * endpoint it was used for (a reuse elsewhere is a conflict, not a second charge). Keys expire after
 * 24 hours and are pruned by their start time.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE idempotency_keys ADD COLUMN endpoint text NOT NULL DEFAULT ''`
  yield* sql`CREATE INDEX idempotency_keys_started_at_idx ON idempotency_keys (started_at)`
})
