import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * One incoming payment per top-up is checked at COMMIT instead of at each statement. The core claims a
 * payment for a top-up before it tries to confirm that top-up; when the top-up turns out to be paid
 * already, the use case fails with a typed error and rolls back. Checked immediately, the constraint
 * fired first and turned that answer into a storage defect. A committed duplicate is still impossible.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE incoming_payments DROP CONSTRAINT incoming_payments_topup_id_key`
  yield* sql`
    ALTER TABLE incoming_payments ADD CONSTRAINT incoming_payments_topup_id_key
    UNIQUE (topup_id) DEFERRABLE INITIALLY DEFERRED`
})
