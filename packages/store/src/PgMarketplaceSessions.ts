import { ConfirmOutcome } from "@resale/core/ports/Marketplace.ts"
import { MarketplaceSessions, type OpenedPurchase, type Resumed } from "@resale/core/ports/MarketplaceSessions.ts"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { NanotonColumn, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** A row of `marketplace_purchases`, decoded into the core's `MarketplacePurchase`. */
const purchaseRows = rowDecoder(
  "marketplace_purchases",
  Schema.Struct({
    reqId: Schema.String,
    session: Schema.String,
    ref: Schema.String,
    payTo: Schema.String,
    amount: NanotonColumn,
    confirm: ConfirmOutcome,
    confirmNote: Schema.NullOr(Schema.String)
  }).pipe(Schema.encodeKeys({ reqId: "req_id", payTo: "pay_to", amount: "amount_nano", confirmNote: "confirm_note" }))
)

// Null when the session had no live holder before (no holder or no hold time): taken, not held.
const heldRows = rowDecoder("marketplace_sessions", Schema.Struct({ was_held: Schema.NullOr(Schema.Boolean) }))

/**
 * `MarketplaceSessions` on `marketplace_sessions` / `marketplace_purchases`: every hold change is one
 * conditional statement on the session's row, so of two processes taking one session exactly one wins.
 */
export const PgMarketplaceSessions = {
  layer: Layer.effect(
    MarketplaceSessions,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const take = Effect.fn("MarketplaceSessions.take")(function* (
        session: string,
        holder: string,
        now: Date,
        until: Date,
        orLent = false
      ) {
        const rows = yield* sql`
          INSERT INTO marketplace_sessions AS s (session, latest_req_id, holder, held_until)
          VALUES (${session}, NULL, ${holder}, ${until})
          ON CONFLICT (session) DO UPDATE
          SET latest_req_id = NULL, holder = EXCLUDED.holder, held_until = EXCLUDED.held_until, lent = false
          WHERE s.holder IS NULL OR s.held_until <= ${now} OR (${orLent} AND s.lent)
          RETURNING session`
        return rows.length === 1
      }, orDieSql)

      const opened = Effect.fn("MarketplaceSessions.opened")(function* (
        session: string,
        holder: string,
        reqId: string,
        until: Date
      ) {
        const rows = yield* sql`
          UPDATE marketplace_sessions SET latest_req_id = ${reqId}, holder = ${reqId}, held_until = ${until}, lent = false
          WHERE session = ${session} AND holder = ${holder}
          RETURNING session`
        return rows.length === 1
      }, orDieSql)

      const record = Effect.fn("MarketplaceSessions.record")(function* (purchase: OpenedPurchase) {
        yield* sql`
          INSERT INTO marketplace_purchases (req_id, session, ref, pay_to, amount_nano)
          VALUES (${purchase.reqId}, ${purchase.session}, ${purchase.ref}, ${purchase.payTo}, ${purchase.amount.toString()})
          ON CONFLICT (req_id) DO NOTHING`
      }, orDieSql)

      // An invoice that is no longer the session's latest is refused without locking the row the
      // session's quotes are writing (a settled batch reports many such invoices at once).
      const resume = Effect.fn("MarketplaceSessions.resume")(function* (
        session: string,
        reqId: string,
        now: Date,
        until: Date
      ) {
        const [row] = yield* heldRows.all(
          yield* sql`
          UPDATE marketplace_sessions AS s
          SET holder = ${reqId}, held_until = GREATEST(CASE WHEN s.holder = ${reqId} THEN s.held_until END, ${until}::timestamptz),
              lent = CASE WHEN s.holder = ${reqId} AND s.held_until > ${now} THEN s.lent ELSE false END
          FROM (SELECT session, holder = ${reqId} AND held_until > ${now} AS was_held
                FROM marketplace_sessions WHERE session = ${session} AND latest_req_id = ${reqId} FOR UPDATE) AS before
          WHERE s.session = before.session AND s.latest_req_id = ${reqId}
            AND (s.holder IS NULL OR s.held_until <= ${now} OR s.holder = ${reqId})
          RETURNING before.was_held`
        )
        const resumed: Resumed = row === undefined ? "refused" : row.was_held ? "held" : "taken"
        return resumed
      }, orDieSql)

      const lend = Effect.fn("MarketplaceSessions.lend")(function* (session: string, reqId: string) {
        yield* sql`UPDATE marketplace_sessions SET lent = true WHERE session = ${session} AND holder = ${reqId}`
      }, orDieSql)

      const release = Effect.fn("MarketplaceSessions.release")(function* (session: string, holder: string) {
        yield* sql`
          UPDATE marketplace_sessions SET holder = NULL, held_until = NULL, lent = false
          WHERE session = ${session} AND holder = ${holder}`
      }, orDieSql)

      const purchase = Effect.fn("MarketplaceSessions.purchase")(function* (reqId: string) {
        return yield* purchaseRows.first(
          yield* sql`
          SELECT req_id, session, ref, pay_to, amount_nano::text AS amount_nano, confirm, confirm_note
          FROM marketplace_purchases WHERE req_id = ${reqId}`
        )
      }, orDieSql)

      const confirmed = Effect.fn("MarketplaceSessions.confirmed")(function* (
        reqId: string,
        outcome: ConfirmOutcome,
        note: string | null
      ) {
        // an accepted message stays accepted: a later failed re-report does not undo the proof
        yield* sql`
            UPDATE marketplace_purchases SET confirm = ${outcome}, confirm_note = ${note}, updated_at = now()
            WHERE req_id = ${reqId} AND confirm <> 'accepted'`
      }, orDieSql)

      return MarketplaceSessions.of({ take, opened, record, resume, lend, release, purchase, confirmed })
    })
  )
}
