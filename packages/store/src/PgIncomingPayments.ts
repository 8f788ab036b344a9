import {
  type IncomingPayment,
  type NewIncomingPayment,
  type Page,
  PaymentAlreadyMatched,
  PaymentId,
  PaymentNotFound,
  PaymentStatus,
  TopupId,
  Uzs
} from "@resale/core"
import { IncomingPayments, type PaymentFilter } from "@resale/core/ports"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, intAs, pageTotal, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** A row of `incoming_payments`, decoded into the core's `IncomingPayment`. */
const PaymentRow = Schema.Struct({
  id: intAs(PaymentId),
  amountUzs: intAs(Uzs),
  cardLast4: Schema.NullOr(Schema.String),
  externalId: Schema.NullOr(Schema.String),
  status: PaymentStatus,
  topupId: Schema.NullOr(intAs(TopupId)),
  createdAt: DateColumn,
  updatedAt: DateColumn
}).pipe(
  Schema.encodeKeys({
    amountUzs: "amount_uzs",
    cardLast4: "card_last4",
    externalId: "external_id",
    topupId: "topup_id",
    createdAt: "created_at",
    updatedAt: "updated_at"
  })
)

const paymentRows = rowDecoder("incoming_payments", PaymentRow)

/**
 * `IncomingPayments` on `incoming_payments`. The unique `external_id` makes one bank message one row:
 * a concurrent second insert waits for the first to commit and then does nothing.
 */
export const PgIncomingPayments = {
  layer: Layer.effect(
    IncomingPayments,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const record = Effect.fn("IncomingPayments.record")(function* (payment: NewIncomingPayment, now: Date) {
        const inserted = yield* paymentRows.first(
          yield* sql`
          INSERT INTO incoming_payments (amount_uzs, card_last4, external_id, status, created_at, updated_at)
          VALUES (${payment.amountUzs}, ${payment.cardLast4}, ${payment.externalId}, 'received', ${now}, ${now})
          ON CONFLICT (external_id) DO NOTHING
          RETURNING *`
        )
        if (Option.isSome(inserted)) return { payment: inserted.value, created: true }
        // A fresh statement sees the row of the transaction that won, committed while this one waited.
        const first = yield* paymentRows.one(
          yield* sql`SELECT * FROM incoming_payments WHERE external_id = ${payment.externalId}`
        )
        return { payment: first, created: false }
      }, orDieSql)

      const find = Effect.fn("IncomingPayments.find")(function* (paymentId: PaymentId) {
        return yield* paymentRows.first(yield* sql`SELECT * FROM incoming_payments WHERE id = ${paymentId}`)
      }, orDieSql)

      // Conditional update; on no row, tell "absent" from "already matched".
      const settle = (paymentId: PaymentId, rows: ReadonlyArray<unknown>) =>
        Effect.gen(function* () {
          const [settled] = yield* paymentRows.all(rows)
          if (settled !== undefined) return settled
          const [current] = yield* paymentRows.all(yield* sql`SELECT * FROM incoming_payments WHERE id = ${paymentId}`)
          if (current === undefined) return yield* new PaymentNotFound({ paymentId })
          return yield* new PaymentAlreadyMatched({ paymentId, status: current.status })
        })

      const markMatched = Effect.fn("IncomingPayments.markMatched")(function* (
        paymentId: PaymentId,
        topupId: TopupId,
        now: Date
      ) {
        return yield* settle(
          paymentId,
          yield* sql`
            UPDATE incoming_payments SET status = 'matched', topup_id = ${topupId}, updated_at = ${now}
            WHERE id = ${paymentId} AND status <> 'matched'
            RETURNING *`
        )
      }, orDieSql)

      const markUnresolved = Effect.fn("IncomingPayments.markUnresolved")(function* (
        paymentId: PaymentId,
        status: "unmatched" | "ambiguous",
        now: Date
      ) {
        return yield* settle(
          paymentId,
          yield* sql`
            UPDATE incoming_payments SET status = ${status}, updated_at = ${now}
            WHERE id = ${paymentId} AND status <> 'matched'
            RETURNING *`
        )
      }, orDieSql)

      const list = Effect.fn("IncomingPayments.list")(function* (filter: PaymentFilter) {
        const where = sql.and([
          filter.status === undefined ? sql`true` : sql`status = ANY(${[...filter.status]}::text[])`,
          filter.from === undefined ? sql`true` : sql`created_at >= ${filter.from}`,
          filter.to === undefined ? sql`true` : sql`created_at < ${filter.to}`,
          filter.amountUzs === undefined ? sql`true` : sql`amount_uzs = ${filter.amountUzs}`,
          // An operator's assignment confirms its top-up as `operator`; a match on arrival as `payment`.
          filter.matchedBy === undefined
            ? sql`true`
            : sql`status = 'matched' AND EXISTS (
            SELECT 1 FROM topups t WHERE t.id = incoming_payments.topup_id
              AND t.confirmed_by = ${filter.matchedBy === "operator" ? "operator" : "payment"})`
        ])
        const order = filter.newestFirst === true ? sql`id DESC` : sql`id`
        const rows = yield* sql`
          SELECT *, count(*) OVER () AS total FROM incoming_payments WHERE ${where}
          ORDER BY ${order} LIMIT ${filter.limit} OFFSET ${filter.offset}`
        const total = yield* pageTotal(
          rows,
          filter.offset,
          sql`SELECT count(*) AS total FROM incoming_payments WHERE ${where}`
        )
        return { items: yield* paymentRows.all(rows), total } satisfies Page<IncomingPayment>
      }, orDieSql)

      return IncomingPayments.of({ record, find, markMatched, markUnresolved, list })
    })
  )
} as const
