import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Opaque webhook event ids: an outbox event carries the random id (`evt_` + base62) of the webhook
 * events it announces, drawn when it is written. Rows written before keep NULL and their deliveries
 * keep the `evt_<outbox id>` they were stored with. Unique, so two events can never share an id.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE outbox_events ADD COLUMN webhook_id text`
  yield* sql`CREATE UNIQUE INDEX outbox_events_webhook_id_idx ON outbox_events (webhook_id) WHERE webhook_id IS NOT NULL`
})
