import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * A Highload Wallet V3 runs many messages in flight (each under its own query id, unique within the
 * wallet's timeout), so its open batches no longer wait for each other: an open batch takes one of a
 * wallet's `slot`s, and a seqno wallet (V5R1, V4R2) only ever gets slot 0, so it keeps one open batch.
 * The query id of every open batch of a wallet is unique as well: two open messages of one wallet can
 * never share one, whichever process signed them.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE wallet_batches ADD COLUMN slot smallint NOT NULL DEFAULT 0 CHECK (slot >= 0)`
  yield* sql`ALTER TABLE wallet_batches ADD COLUMN query_id bigint CHECK (query_id >= 0)`
  yield* sql`UPDATE wallet_batches SET query_id = (prepared->>'queryId')::bigint WHERE prepared ? 'queryId'`
  yield* sql`DROP INDEX wallet_batches_open_idx`
  yield* sql`CREATE UNIQUE INDEX wallet_batches_open_idx ON wallet_batches (wallet_address, slot) WHERE state IN ('signed', 'sent')`
  yield* sql`
    CREATE UNIQUE INDEX wallet_batches_open_query_idx ON wallet_batches (wallet_address, query_id)
    WHERE state IN ('signed', 'sent') AND query_id IS NOT NULL`
})
