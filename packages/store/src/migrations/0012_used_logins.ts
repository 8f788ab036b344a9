import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Telegram sign-in payloads already used, by the SHA-256 of their signature: a payload signs in
 * once only. A row is kept while the payload would still be accepted (its short window), then swept.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE used_logins (
      payload_hash text PRIMARY KEY,
      keep_until timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX used_logins_keep_until_idx ON used_logins (keep_until)`
})
