import {
  type IncomingPayment,
  IncomingPayments,
  type NewIncomingPayment,
  type PaymentFilter,
  type Page,
  type PageRequest,
  PaymentAlreadyMatched,
  type PaymentId,
  PaymentNotFound,
  type PaymentStatus,
  type TopupId
} from "@resale/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { date, id, idOrNull, int, orDieSql, totalOf, uzs } from "./SqlValues.ts"

interface PaymentRow {
  readonly id: bigint
  readonly amount_uzs: bigint
  readonly card_last4: string | null
  readonly external_id: string | null
  readonly status: string
  readonly topup_id: bigint | null
  readonly created_at: Date
  readonly updated_at: Date
}

const toPayment = (row: PaymentRow): IncomingPayment => ({
  id: id<PaymentId>(row.id),
  amountUzs: uzs(row.amount_uzs),
  cardLast4: row.card_last4,
  externalId: row.external_id,
  status: row.status as PaymentStatus,
  topupId: idOrNull<TopupId>(row.topup_id),
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at)
})

/**
 * `IncomingPayments` on `incoming_payments`. The unique `external_id` makes one bank message one row:
 * a concurrent second insert waits for the first to commit and then does nothing.
 */
export const PgIncomingPayments = {
  layer: Layer.effect(
    IncomingPayments,
    Effect.gen(function*() {
      const sql = yield* SqlClient

      const record = Effect.fn("IncomingPayments.record")(function*(payment: NewIncomingPayment, now: Date) {
        const [row] = yield* sql<PaymentRow>`
          INSERT INTO incoming_payments (amount_uzs, card_last4, external_id, status, created_at, updated_at)
          VALUES (${payment.amountUzs}, ${payment.cardLast4}, ${payment.externalId}, 'received', ${now}, ${now})
          ON CONFLICT (external_id) DO NOTHING
          RETURNING *`
        if (row !== undefined) return { payment: toPayment(row), created: true }
        // A fresh statement sees the row of the transaction that won, committed while this one waited.
        const [first] = yield* sql<PaymentRow>`SELECT * FROM incoming_payments WHERE external_id = ${payment.externalId}`
        if (first === undefined) return yield* Effect.die(new Error("incoming payment conflict without a row"))
        return { payment: toPayment(first), created: false }
      }, orDieSql)

      const find = Effect.fn("IncomingPayments.find")(function*(paymentId: PaymentId) {
        const [row] = yield* sql<PaymentRow>`SELECT * FROM incoming_payments WHERE id = ${paymentId}`
        return row === undefined ? Option.none() : Option.some(toPayment(row))
      }, orDieSql)

      // Conditional update; on no row, tell "absent" from "already matched".
      const settle = (paymentId: PaymentId, rows: ReadonlyArray<PaymentRow>) =>
        Effect.gen(function*() {
          if (rows[0] !== undefined) return toPayment(rows[0])
          const [current] = yield* sql<PaymentRow>`SELECT * FROM incoming_payments WHERE id = ${paymentId}`
          if (current === undefined) return yield* new PaymentNotFound({ paymentId })
          return yield* new PaymentAlreadyMatched({ paymentId, status: current.status as PaymentStatus })
        })

      const markMatched = Effect.fn("IncomingPayments.markMatched")(function*(
        paymentId: PaymentId,
        topupId: TopupId,
        now: Date
      ) {
        return yield* settle(
          paymentId,
          yield* sql<PaymentRow>`
            UPDATE incoming_payments SET status = 'matched', topup_id = ${topupId}, updated_at = ${now}
            WHERE id = ${paymentId} AND status <> 'matched'
            RETURNING *`
        )
      }, orDieSql)

      const markUnresolved = Effect.fn("IncomingPayments.markUnresolved")(function*(
        paymentId: PaymentId,
        status: "unmatched" | "ambiguous",
        now: Date
      ) {
        return yield* settle(
          paymentId,
          yield* sql<PaymentRow>`
            UPDATE incoming_payments SET status = ${status}, updated_at = ${now}
            WHERE id = ${paymentId} AND status <> 'matched'
            RETURNING *`
        )
      }, orDieSql)

      const list = Effect.fn("IncomingPayments.list")(function*(filter: PaymentFilter) {
        const where = sql.and([
          filter.status === undefined ? sql`true` : sql`status = ANY(${[...filter.status]}::text[])`,
          filter.from === undefined ? sql`true` : sql`created_at >= ${filter.from}`,
          filter.to === undefined ? sql`true` : sql`created_at < ${filter.to}`,
          filter.amountUzs === undefined ? sql`true` : sql`amount_uzs = ${filter.amountUzs}`
        ])
        const order = filter.newestFirst === true ? sql`id DESC` : sql`id`
        const rows = yield* sql<PaymentRow & { readonly total: bigint }>`
          SELECT *, count(*) OVER () AS total FROM incoming_payments WHERE ${where}
          ORDER BY ${order} LIMIT ${filter.limit} OFFSET ${filter.offset}`
        const total = rows.length > 0 || filter.offset === 0
          ? totalOf(rows)
          : int((yield* sql<{ n: bigint }>`SELECT count(*) AS n FROM incoming_payments WHERE ${where}`)[0]?.n ?? 0)
        return { items: rows.map(toPayment), total } satisfies Page<IncomingPayment>
      }, orDieSql)

      return IncomingPayments.of({ record, find, markMatched, markUnresolved, list })
    })
  )
} as const
