import {
  type NewOrder,
  type Order,
  type OrderDelivery,
  type OrderEvidence,
  type OrderFilter,
  type OrderId,
  type OrderItem,
  OrderNotFound,
  type OrderPatch,
  Orders,
  type OrderStatus,
  OrderTransitionInvalid,
  type Page,
  type UserId
} from "@resale/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { date, dateOrNull, id, int, orDieSql, totalOf, uzs } from "./SqlValues.ts"

interface OrderRow {
  readonly id: bigint
  readonly user_id: bigint
  readonly recipient: string
  readonly kind: string
  readonly item: OrderItem
  readonly price_uzs: bigint
  readonly status: string
  readonly charge_seq: number
  readonly attempts: number
  readonly last_error: string | null
  readonly next_attempt_at: Date | null
  readonly tx_id: string | null
  readonly fragment_ref: string | null
  readonly gift_ref: string | null
  readonly unknown_since: Date | null
  readonly unknown_attempts: number
  readonly evidence: OrderEvidence | null
  readonly created_at: Date
  readonly updated_at: Date
  readonly completed_at: Date | null
  readonly delivery: string | null
}

const toOrder = (row: OrderRow): Order => ({
  id: id<OrderId>(row.id),
  userId: id<UserId>(row.user_id),
  recipient: row.recipient,
  item: row.item,
  priceUzs: uzs(row.price_uzs),
  status: row.status as OrderStatus,
  chargeSeq: int(row.charge_seq),
  attempts: int(row.attempts),
  lastError: row.last_error,
  nextAttemptAt: dateOrNull(row.next_attempt_at),
  txId: row.tx_id,
  fragmentRef: row.fragment_ref,
  giftRef: row.gift_ref,
  unknownSince: dateOrNull(row.unknown_since),
  unknownAttempts: int(row.unknown_attempts),
  evidence: row.evidence,
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at),
  completedAt: dateOrNull(row.completed_at),
  delivery: row.delivery as OrderDelivery | null
})

/**
 * `Orders` on the `orders` table (the item as jsonb, its kind in a column of its own for filters).
 * State changes are conditional UPDATEs; `claimNext` takes a due order with `FOR UPDATE SKIP LOCKED`,
 * so concurrent workers each get a different one and never wait for each other.
 */
export const PgOrders = {
  layer: Layer.effect(
    Orders,
    Effect.gen(function*() {
      const sql = yield* SqlClient

      const insert = Effect.fn("Orders.insert")(function*(order: NewOrder, now: Date) {
        const [row] = yield* sql<OrderRow>`
          INSERT INTO orders (user_id, recipient, kind, item, price_uzs, status, created_at, updated_at)
          VALUES (${order.userId}, ${order.recipient}, ${order.item.kind}, ${JSON.stringify(order.item)}::jsonb, ${order.priceUzs},
                  'queued', ${now}, ${now})
          RETURNING *`
        if (row === undefined) return yield* Effect.die(new Error("order insert returned no row"))
        return toOrder(row)
      }, orDieSql)

      const find = Effect.fn("Orders.find")(function*(orderId: OrderId) {
        const [row] = yield* sql<OrderRow>`SELECT * FROM orders WHERE id = ${orderId}`
        return row === undefined ? Option.none() : Option.some(toOrder(row))
      }, orDieSql)

      const list = Effect.fn("Orders.list")(function*(filter: OrderFilter) {
        const where = sql.and([
          ...(filter.userId === undefined ? [] : [sql`user_id = ${filter.userId}`]),
          ...(filter.kind === undefined ? [] : [sql`kind = ${filter.kind}`]),
          ...(filter.status === undefined ? [] : [sql`status = ANY(${[...filter.status]}::text[])`]),
          ...(filter.beforeId === undefined ? [] : [sql`id < ${filter.beforeId}`]),
          ...(filter.createdAfter === undefined ? [] : [sql`created_at > ${filter.createdAfter}`])
        ])
        const rows = yield* sql<OrderRow & { readonly total: bigint }>`
          SELECT *, count(*) OVER () AS total FROM orders WHERE ${where}
          ORDER BY id DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`
        const total = rows.length > 0 || filter.offset === 0
          ? totalOf(rows)
          : int((yield* sql<{ n: bigint }>`SELECT count(*) AS n FROM orders WHERE ${where}`)[0]?.n ?? 0)
        return { items: rows.map(toOrder), total } satisfies Page<Order>
      }, orDieSql)

      // `column = $value` when the patch sets the field, `column = column` when it leaves it alone.
      const set = <K extends keyof OrderPatch>(patch: OrderPatch, key: K, column: string) =>
        patch[key] === undefined ? sql`${sql(column)} = ${sql(column)}` : sql`${sql(column)} = ${patch[key]}`

      const transition = Effect.fn("Orders.transition")(function*(
        orderId: OrderId,
        from: ReadonlyArray<OrderStatus>,
        to: OrderStatus,
        patch: OrderPatch,
        now: Date
      ) {
        const [row] = yield* sql<OrderRow>`
          UPDATE orders SET
            status = ${to},
            ${set(patch, "chargeSeq", "charge_seq")},
            ${set(patch, "attempts", "attempts")},
            ${set(patch, "lastError", "last_error")},
            ${set(patch, "nextAttemptAt", "next_attempt_at")},
            ${set(patch, "txId", "tx_id")},
            ${set(patch, "fragmentRef", "fragment_ref")},
            ${set(patch, "giftRef", "gift_ref")},
            ${set(patch, "completedAt", "completed_at")},
            ${set(patch, "unknownSince", "unknown_since")},
            ${set(patch, "unknownAttempts", "unknown_attempts")},
            ${set(patch, "delivery", "delivery")},
            ${patch.evidence === undefined ? sql`evidence = evidence` : sql`evidence = ${patch.evidence === null ? null : JSON.stringify(patch.evidence)}::jsonb`},
            updated_at = ${now}
          WHERE id = ${orderId} AND status = ANY(${[...from]}::text[])
          RETURNING *`
        if (row !== undefined) return toOrder(row)
        const [current] = yield* sql<{ status: string }>`SELECT status FROM orders WHERE id = ${orderId}`
        if (current === undefined) return yield* new OrderNotFound({ orderId })
        return yield* new OrderTransitionInvalid({ orderId, from: current.status as OrderStatus, to })
      }, orDieSql)

      const claimNext = Effect.fn("Orders.claimNext")(function*(now: Date) {
        const [row] = yield* sql<OrderRow>`
          UPDATE orders SET status = 'processing', updated_at = ${now}
          WHERE id = (
            SELECT id FROM orders
            WHERE status = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= ${now})
            ORDER BY id
            LIMIT 1
            FOR UPDATE SKIP LOCKED)
          RETURNING *`
        return row === undefined ? Option.none() : Option.some(toOrder(row))
      }, orDieSql)

      return Orders.of({ insert, find, list, transition, claimNext })
    })
  )
} as const
