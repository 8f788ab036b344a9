import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * A new card top-up skips the payable amounts of card top-ups closed recently (quarantine), so a late
 * bank payment cannot credit someone else. The offset choice probes those rows by payable amount and
 * closing time; top-ups a bank payment confirmed never block an amount and stay out of the index.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    CREATE INDEX topups_closed_card_payable_idx ON topups (payable_uzs, updated_at)
    WHERE method = 'card' AND status IN ('paid', 'cancelled', 'rejected', 'expired')
      AND confirmed_by IS DISTINCT FROM 'payment'`
})
