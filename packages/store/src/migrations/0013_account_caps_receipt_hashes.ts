import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Per-account caps and receipts by content.
 * - `account_activity`: one row per capped action (top-up created or cancelled, receipt uploaded,
 *   ticket opened); the daily caps count the rows of the last 24 hours. Old rows only matter for a
 *   day, so they may be deleted at leisure.
 * - `topups.receipt_sha256`: the SHA-256 of the receipt file, so the same file again (any amount,
 *   any user, any time) is held for an operator. Rows stored before have none.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE account_activity (
      id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id  bigint NOT NULL REFERENCES users (id),
      action   text NOT NULL CHECK (action <> ''),
      at       timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX account_activity_user_action_idx ON account_activity (user_id, action, at)`
  yield* sql`ALTER TABLE topups ADD COLUMN receipt_sha256 text CHECK (receipt_sha256 ~ '^[0-9a-f]{64}$')`
  yield* sql`CREATE INDEX topups_receipt_sha256_idx ON topups (receipt_sha256) WHERE receipt_sha256 IS NOT NULL`
  // What countOpen reads: one account's open top-ups.
  yield* sql`CREATE INDEX topups_user_open_idx ON topups (user_id, status) WHERE status IN ('pending', 'review')`
})
