import {
  type ChargeOfNew,
  DEFAULT_PRICES,
  type Order,
  OrderDelivery,
  OrderEvidence,
  OrderId,
  OrderItem,
  OrderNotFound,
  OrderStatus,
  OrderTransitionInvalid,
  type Page,
  type Prices,
  PricesChanged,
  UserId,
  Uzs
} from "@resale/core"
import { refusalOf } from "@resale/core/ledger/BalanceMovement.ts"
import { type NewOrder, type OrderFilter, type OrderPatch, Orders } from "@resale/core/ports"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, IntColumn, intAs, pageTotal, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** A row of `orders`, decoded into the core's `Order` (the item is the jsonb column; `kind` repeats it for filters). */
const OrderRow = Schema.Struct({
  id: intAs(OrderId),
  userId: intAs(UserId),
  recipient: Schema.String,
  item: OrderItem,
  priceUzs: intAs(Uzs),
  status: OrderStatus,
  chargeSeq: IntColumn,
  attempts: IntColumn,
  lastError: Schema.NullOr(Schema.String),
  nextAttemptAt: Schema.NullOr(DateColumn),
  txId: Schema.NullOr(Schema.String),
  fragmentRef: Schema.NullOr(Schema.String),
  giftRef: Schema.NullOr(Schema.String),
  unknownSince: Schema.NullOr(DateColumn),
  unknownAttempts: IntColumn,
  evidence: Schema.NullOr(OrderEvidence),
  createdAt: DateColumn,
  updatedAt: DateColumn,
  completedAt: Schema.NullOr(DateColumn),
  delivery: Schema.NullOr(OrderDelivery)
}).pipe(
  Schema.encodeKeys({
    userId: "user_id",
    priceUzs: "price_uzs",
    chargeSeq: "charge_seq",
    lastError: "last_error",
    nextAttemptAt: "next_attempt_at",
    txId: "tx_id",
    fragmentRef: "fragment_ref",
    giftRef: "gift_ref",
    unknownSince: "unknown_since",
    unknownAttempts: "unknown_attempts",
    createdAt: "created_at",
    updatedAt: "updated_at",
    completedAt: "completed_at"
  })
)

const orderRows = rowDecoder("orders", OrderRow)
const refusalRows = rowDecoder("accounts", Schema.Struct({ balance_uzs: intAs(Uzs), prices_current: Schema.Boolean }))

/** A price list as the `bigint[]` of the `prices` row's four columns. */
const priceArray = (prices: Prices) =>
  [prices.starPriceUzs, prices.premium3MonthUzs, prices.premium6MonthUzs, prices.premium12MonthUzs].map(String)
const statusRows = rowDecoder("orders", Schema.Struct({ status: OrderStatus }))
const chargedRows = rowDecoder("orders", Schema.Struct({ charge_balance_after_uzs: intAs(Uzs) }))

/**
 * `Orders` on the `orders` table (the item as jsonb, its kind in a column of its own for filters).
 * State changes are conditional UPDATEs; `claimDue` (and `claimNext`, its limit of one) takes due orders with `FOR UPDATE SKIP LOCKED`,
 * so concurrent workers each get a different one and never wait for each other.
 */
export const PgOrders = {
  layer: Layer.effect(
    Orders,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const insert = Effect.fn("Orders.insert")(function* (order: NewOrder, now: Date) {
        return yield* orderRows.one(
          yield* sql`
          INSERT INTO orders (user_id, recipient, kind, item, price_uzs, status, created_at, updated_at)
          VALUES (${order.userId}, ${order.recipient}, ${order.item.kind}, ${JSON.stringify(order.item)}::jsonb, ${order.priceUzs},
                  'queued', ${now}, ${now})
          RETURNING *`
        )
      }, orDieSql)

      // Whether `prices` is the current price list (the `prices` row, `DEFAULT_PRICES` without one).
      const isCurrentList = (prices: Prices) =>
        sql`coalesce(
          (SELECT ARRAY[star_price_uzs, premium_3_month_uzs, premium_6_month_uzs, premium_12_month_uzs]::bigint[] FROM prices),
          ${priceArray(DEFAULT_PRICES)}::bigint[]) = ${priceArray(prices)}::bigint[]`

      // One statement applies core's `newOrderCharge`: lock the account row (only while the price list the
      // charge rests on is the current one), insert the order only if the balance after the charge stays at
      // least its `minBalanceAfter`, its ledger entry (the cause id around the new order's id) and the balance
      // move; so the row lock is held for this statement alone, and a refused charge writes nothing. The
      // entry's balance after is the balance right after this charge, whatever other orders do next.
      const insertCharged = Effect.fn("Orders.insertCharged")(function* (
        order: NewOrder,
        charge: ChargeOfNew,
        now: Date
      ) {
        const rows = yield* sql`
          WITH account AS (
            SELECT balance_uzs FROM accounts
            WHERE user_id = ${charge.userId} AND ${isCurrentList(charge.pricedAt)} FOR UPDATE
          ), placed AS (
            INSERT INTO orders (user_id, recipient, kind, item, price_uzs, status, created_at, updated_at)
            SELECT ${order.userId}, ${order.recipient}, ${order.item.kind}, ${JSON.stringify(order.item)}::jsonb,
                   ${order.priceUzs}, 'queued', ${now}, ${now}
            FROM account WHERE balance_uzs + ${charge.amount} >= ${charge.minBalanceAfter}
            RETURNING *
          ), entry AS (
            INSERT INTO ledger_entries (user_id, amount_uzs, cause, cause_id, note, balance_after_uzs)
            SELECT ${charge.userId}, ${charge.amount}, ${charge.cause},
                   ${charge.causeId.before} || placed.id::text || ${charge.causeId.after},
                   ${charge.note ?? null}, account.balance_uzs + ${charge.amount}
            FROM placed, account
            RETURNING balance_after_uzs
          ), moved AS (
            UPDATE accounts SET balance_uzs = entry.balance_after_uzs FROM entry WHERE accounts.user_id = ${charge.userId}
          )
          SELECT placed.*, entry.balance_after_uzs AS charge_balance_after_uzs FROM placed, entry`
        if (rows.length === 0) {
          const [account] = yield* refusalRows.all(
            yield* sql`
            SELECT balance_uzs, ${isCurrentList(charge.pricedAt)} AS prices_current
            FROM accounts WHERE user_id = ${charge.userId}`
          )
          if (account === undefined) return yield* Effect.die(new Error(`user ${charge.userId} has no ledger account`))
          const refused = refusalOf(charge, { balance: account.balance_uzs, pricesCurrent: account.prices_current })
          // A credit committed between the two statements made the charge fit: the caller prices it again.
          return yield* refused ?? new PricesChanged()
        }
        const placed = yield* orderRows.one(rows)
        const charged = yield* chargedRows.one(rows)
        return { order: placed, balanceAfter: charged.charge_balance_after_uzs }
      }, orDieSql)

      const find = Effect.fn("Orders.find")(function* (orderId: OrderId) {
        return yield* orderRows.first(yield* sql`SELECT * FROM orders WHERE id = ${orderId}`)
      }, orDieSql)

      const list = Effect.fn("Orders.list")(function* (filter: OrderFilter) {
        const where = sql.and([
          ...(filter.userId === undefined ? [] : [sql`user_id = ${filter.userId}`]),
          ...(filter.kind === undefined ? [] : [sql`kind = ${filter.kind}`]),
          ...(filter.status === undefined ? [] : [sql`status = ANY(${[...filter.status]}::text[])`]),
          ...(filter.beforeId === undefined ? [] : [sql`id < ${filter.beforeId}`]),
          ...(filter.createdAfter === undefined ? [] : [sql`created_at > ${filter.createdAfter}`])
        ])
        const rows = yield* sql`
          SELECT *, count(*) OVER () AS total FROM orders WHERE ${where}
          ORDER BY id DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`
        const total = yield* pageTotal(rows, filter.offset, sql`SELECT count(*) AS total FROM orders WHERE ${where}`)
        return { items: yield* orderRows.all(rows), total } satisfies Page<Order>
      }, orDieSql)

      // `column = $value` when the patch sets the field, `column = column` when it leaves it alone.
      const set = <K extends keyof OrderPatch>(patch: OrderPatch, key: K, column: string) =>
        patch[key] === undefined ? sql`${sql(column)} = ${sql(column)}` : sql`${sql(column)} = ${patch[key]}`

      const transition = Effect.fn("Orders.transition")(function* (
        orderId: OrderId,
        from: ReadonlyArray<OrderStatus>,
        to: OrderStatus,
        patch: OrderPatch,
        now: Date
      ) {
        const [row] = yield* orderRows.all(
          yield* sql`
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
        )
        if (row !== undefined) return row
        const [current] = yield* statusRows.all(yield* sql`SELECT status FROM orders WHERE id = ${orderId}`)
        if (current === undefined) return yield* new OrderNotFound({ orderId })
        return yield* new OrderTransitionInvalid({ orderId, from: current.status, to })
      }, orDieSql)

      const claimDue = Effect.fn("Orders.claimDue")(function* (now: Date, limit: number) {
        if (limit < 1) return []
        const claimed = yield* orderRows.all(
          yield* sql`
          UPDATE orders SET status = 'processing', updated_at = ${now}
          WHERE id IN (
            SELECT id FROM orders
            WHERE status = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= ${now})
            ORDER BY id
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          RETURNING *`
        )
        // RETURNING keeps no order: oldest first, as the claims one by one went.
        return claimed.toSorted((a, b) => a.id - b.id)
      }, orDieSql)

      // One order: the same statement with a limit of one.
      const claimNext = (now: Date) => Effect.map(claimDue(now, 1), (claimed) => Option.fromNullishOr(claimed[0]))

      const touch = Effect.fn("Orders.touch")(function* (ids: ReadonlyArray<OrderId>, now: Date) {
        if (ids.length === 0) return
        yield* sql`UPDATE orders SET updated_at = ${now} WHERE id = ANY(${ids.map(String)}::bigint[]) AND status = 'processing'`
      }, orDieSql)

      return Orders.of({ insert, insertCharged, find, list, transition, touch, claimNext, claimDue })
    })
  )
} as const
