import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * A batched purchase keeps its Fragment session while its payment waits for the chain, so that in
 * quiet times its delivery is still the session's to read; `lent` marks such a hold as one a purchase
 * finding no free session may take over (as the session was simply released before).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE marketplace_sessions ADD COLUMN lent boolean NOT NULL DEFAULT false`
})
