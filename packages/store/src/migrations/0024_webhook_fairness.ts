import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Fair webhook dispatch: an endpoint carries its own lease (`lease_until`), taken when one of its
 * deliveries is claimed and set back to the attempt's end when it is recorded, so an endpoint has at
 * most one send in flight and the endpoints served longest ago (NULL: never) are claimed first. The
 * index serves the per-endpoint counts of waiting deliveries (the pending caps).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE webhook_endpoints ADD COLUMN lease_until timestamptz`
  yield* sql`
    CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (endpoint_id, next_attempt_at)
    WHERE status = 'pending'`
})
