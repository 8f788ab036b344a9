import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * A card top-up whose owner also sent a receipt moves to `review` and keeps its payable amount, so a
 * bank payment of that amount can still confirm it. That amount must stay its own: the unique payable
 * key now covers card top-ups in review as well as pending ones. Before this release no card top-up
 * could be in review, so existing rows satisfy the wider index.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    CREATE UNIQUE INDEX topups_open_payable_key ON topups (payable_uzs)
    WHERE status = 'pending' OR (status = 'review' AND method = 'card')`
  yield* sql`DROP INDEX topups_pending_payable_key`
  // What findMatchableByPayable reads besides the pending rows.
  yield* sql`CREATE INDEX topups_review_card_idx ON topups (payable_uzs) WHERE status = 'review' AND method = 'card'`
})
