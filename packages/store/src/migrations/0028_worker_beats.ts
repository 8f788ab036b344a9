import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Each worker process's proof of life, shared by the fleet: when its job loops last went round and
 * what it last read of the hot wallet, so every server's status panel shows every worker (a dead one
 * as silent) without the hot wallet's keys. One row per live process, upserted every few seconds.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE worker_beats (
      worker         text PRIMARY KEY CHECK (worker <> ''),
      started_at     timestamptz NOT NULL,
      beat_at        timestamptz NOT NULL,
      hot_wallet     jsonb,
      wallet_read_at timestamptz,
      CHECK ((hot_wallet IS NULL) = (wallet_read_at IS NULL))
    )`
})
