import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Wrong tokens per guarded secret (operator token, metrics token) and client address, counted by
 * every server on the database, so an address spreading its guesses over several servers meets one
 * budget. One row per address that failed in the last 15 minutes; older rows are deleted as the
 * servers go.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE token_failures (
      guard            text NOT NULL,
      client           text NOT NULL,
      failures         integer NOT NULL CHECK (failures > 0),
      last_failure_at  timestamptz NOT NULL,
      PRIMARY KEY (guard, client)
    )`
  yield* sql`CREATE INDEX token_failures_last_idx ON token_failures (last_failure_at)`
})
