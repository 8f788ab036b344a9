import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Request counts of the direct surface per client address and minute, for servers that run as several
 * instances (`DIRECT_RATE_SHARED=true`): every instance counts in the same row, so the limit holds for
 * the whole service. Rows older than a few minutes are deleted by the instances as they go.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE direct_rate_windows (
      client        text NOT NULL,
      window_start  timestamptz NOT NULL,
      hits          integer NOT NULL CHECK (hits > 0),
      PRIMARY KEY (client, window_start)
    )`
  yield* sql`CREATE INDEX direct_rate_windows_start_idx ON direct_rate_windows (window_start)`
})
