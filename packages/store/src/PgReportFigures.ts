import { LedgerCause } from "@resale/core"
import { ReportFigures, type ReportWindow } from "@resale/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { IntColumn, NanotonColumn, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

const ledgerRows = rowDecoder(
  "ledger_entries",
  Schema.Struct({
    period: Schema.String,
    cause: LedgerCause,
    detail: Schema.NullOr(Schema.String),
    amountUzs: IntColumn,
    entries: IntColumn
  }).pipe(Schema.encodeKeys({ amountUzs: "amount" }))
)

const tonRows = rowDecoder(
  "wallet_payments",
  Schema.Struct({
    period: Schema.String,
    kind: Schema.Literals(["stars", "premium"]),
    paidNano: NanotonColumn,
    feeNano: NanotonColumn,
    units: IntColumn,
    purchases: IntColumn
  }).pipe(Schema.encodeKeys({ paidNano: "paid", feeNano: "fee" }))
)

const totalRows = rowDecoder("ledger_entries", Schema.Struct({ total: IntColumn }))

/**
 * `ReportFigures` as SQL aggregates. A top-up credited with a bank payment counts as bank money whether
 * it matched by itself or an operator assigned it. A period is the Tashkent calendar period of the row's instant:
 * Tashkent is UTC+5 all year, so the local time is the UTC wall time plus five hours (no time zone
 * database needed, which the embedded PGlite may lack). Top-ups are told apart by how they were
 * confirmed, orders and refunds by the order's kind (cause ids `<order>`, `<order>:retry:<n>`, `<order>:<n>`).
 * Other causes' ids are free text, hence the casts inside CASE. TON is what the hot wallet paid for
 * account orders (`wallet_payments` paid, when they were settled), with the order's stars or months;
 * the direct surface's purchases are paid from the callers' own wallets and are not the service's cost.
 */
export const PgReportFigures = {
  layer: Layer.effect(
    ReportFigures,
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const local = (column: string) => sql.unsafe(`((${column} AT TIME ZONE 'UTC') + interval '5 hours')`)
      const periodOf = (window: ReportWindow, column: string) =>
        sql`to_char(date_trunc(${window.period}, ${local(column)}), 'YYYY-MM-DD')`

      const ledger = (window: ReportWindow) =>
        sql`
          SELECT ${periodOf(window, "e.created_at")} AS period, e.cause,
                 CASE e.cause WHEN 'topup' THEN (CASE WHEN t.payment_id IS NOT NULL THEN 'payment' ELSE t.confirmed_by END)
                   WHEN 'order' THEN o.kind WHEN 'refund' THEN o.kind END AS detail,
                 sum(e.amount_uzs)::text AS amount, count(*)::text AS entries
          FROM ledger_entries e
          LEFT JOIN topups t ON t.id = CASE WHEN e.cause = 'topup' THEN e.cause_id::bigint END
          LEFT JOIN orders o ON o.id = CASE WHEN e.cause IN ('order', 'refund') THEN split_part(e.cause_id, ':', 1)::bigint END
          WHERE e.created_at >= ${window.start} AND e.created_at < ${window.end}
          GROUP BY 1, 2, 3`.pipe(Effect.flatMap(ledgerRows.all), orDieSql)

      // A batch's network fee is shared equally by its payments (nanoton left by the division are not counted).
      const ton = (window: ReportWindow) =>
        sql`
          SELECT ${periodOf(window, "p.updated_at")} AS period, p.kind,
                 sum(p.amount_nano)::text AS paid, coalesce(sum(b.fee_nano / b.payments), 0)::text AS fee,
                 coalesce(sum(CASE p.kind WHEN 'stars' THEN (o.item ->> 'stars')::bigint ELSE (o.item ->> 'months')::bigint END), 0)::text AS units,
                 count(*)::text AS purchases
          FROM wallet_payments p
          LEFT JOIN wallet_batches b ON b.id = p.batch_id
          LEFT JOIN orders o ON o.id = CASE WHEN p.key ~ '^hw-[0-9]+-' THEN split_part(p.key, '-', 2)::bigint END
          WHERE p.state = 'paid' AND p.updated_at >= ${window.start} AND p.updated_at < ${window.end}
          GROUP BY 1, 2`.pipe(Effect.flatMap(tonRows.all), orDieSql)

      const outstandingAt = (instant: Date) =>
        sql`SELECT coalesce(sum(amount_uzs), 0)::text AS total FROM ledger_entries WHERE created_at < ${instant}`.pipe(
          Effect.flatMap(totalRows.one),
          Effect.map((row) => row.total),
          orDieSql
        )

      return ReportFigures.of({ ledger, ton, outstandingAt })
    })
  )
}
