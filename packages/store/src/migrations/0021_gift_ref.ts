import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * A gift order's reference is not a Fragment `Ref#`: gifts are sent by a Telegram gift sender, and
 * the value is the send marker (`gift@<instant before the send>`) that tells a resumed attempt to
 * ask the gift service whether that send happened. It moves from `fragment_ref` to `gift_ref`, and
 * each column is held to its own kind of order.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE orders ADD COLUMN gift_ref text`
  yield* sql`UPDATE orders SET gift_ref = fragment_ref, fragment_ref = NULL WHERE kind = 'gift' AND fragment_ref IS NOT NULL`
  yield* sql`
    ALTER TABLE orders
      ADD CONSTRAINT orders_fragment_ref_not_gift CHECK (kind <> 'gift' OR fragment_ref IS NULL),
      ADD CONSTRAINT orders_gift_ref_gift_only CHECK (kind = 'gift' OR gift_ref IS NULL)`
})
