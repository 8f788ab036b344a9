import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Direct order ids belong to their wallet. Until now `order_id` was the primary key, one namespace for
 * every caller: another wallet could block a guessable id, take over an id after a failure, or learn
 * that an id was in use. Now each record has its own id, and at most one *latest* record exists per
 * (network, wallet address, order id); older records of an id (a finished order followed by a new
 * request under the same id) stay as they are, with `latest = false`. Existing rows keep their order
 * ids and all become latest (they were unique on `order_id` alone, so they are unique per wallet too).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE direct_purchases DROP CONSTRAINT direct_purchases_pkey`
  yield* sql`ALTER TABLE direct_purchases ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY`
  yield* sql`ALTER TABLE direct_purchases ADD COLUMN latest boolean NOT NULL DEFAULT true`
  yield* sql`
    CREATE UNIQUE INDEX direct_purchases_wallet_order_idx ON direct_purchases (network, wallet_address, order_id)
    WHERE latest`
  yield* sql`CREATE INDEX direct_purchases_order_id_idx ON direct_purchases (order_id, created_at)`
})
