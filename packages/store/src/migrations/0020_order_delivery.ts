import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * How a completed order's delivery is known: `confirmed` (the marketplace's answer was about this
 * order, or an operator marked it done) or `paid_unconfirmed` (settled on its own payment evidence,
 * kept in `evidence`). Null while not completed. Orders completed before this column were all
 * completed on a confirmation, so they are `confirmed`.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    ALTER TABLE orders
      ADD COLUMN delivery text CHECK (delivery IN ('confirmed', 'paid_unconfirmed')),
      ADD CONSTRAINT orders_delivery_completed CHECK (delivery IS NULL OR status = 'completed')`
  yield* sql`UPDATE orders SET delivery = 'confirmed' WHERE status = 'completed'`
})
