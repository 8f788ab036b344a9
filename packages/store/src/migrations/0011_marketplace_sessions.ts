import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Fragment keeps one purchase state per cookie session, so purchases through one session are
 * serialized across processes: `marketplace_sessions` holds who is buying through a session and its
 * latest invoice; `marketplace_purchases` keeps each invoice's own evidence (session, Ref#, the
 * address and amount Fragment asked for, and Fragment's answer to its signed message).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE marketplace_sessions (
      session        text PRIMARY KEY,
      latest_req_id  text,
      holder         text,
      held_until     timestamptz,
      CHECK ((holder IS NULL) = (held_until IS NULL))
    )`
  yield* sql`
    CREATE TABLE marketplace_purchases (
      req_id        text PRIMARY KEY,
      session       text NOT NULL,
      ref           text NOT NULL,
      pay_to        text NOT NULL,
      amount_nano   numeric(20, 0) NOT NULL CHECK (amount_nano > 0),
      confirm       text NOT NULL DEFAULT 'unsent' CHECK (confirm IN ('accepted', 'refused', 'unsent')),
      confirm_note  text,
      created_at    timestamptz NOT NULL DEFAULT now(),
      updated_at    timestamptz NOT NULL DEFAULT now()
    )`
})
