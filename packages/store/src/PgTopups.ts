import {
  type Page,
  PaymentId,
  type ReceiptInfo,
  type Topup,
  TopupConfirmation,
  TopupId,
  TopupMethod,
  TopupNotFound,
  TopupPayableExhausted,
  TopupStatus,
  TopupTransitionInvalid,
  UserId,
  Uzs
} from "@resale/core"
import { type TopupFilter, type TopupPatch, Topups } from "@resale/core/ports"
import { choosePayable, PAYABLE_OFFSETS, payableTakenOf } from "@resale/core/topups/PayableAmount.ts"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, IntColumn, intAs, mapRows, pageTotal, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** A row of `topups`; the receipt's four columns become the core's `receipt` (null without a key). */
const TopupRow = Schema.Struct({
  id: intAs(TopupId),
  user_id: intAs(UserId),
  method: TopupMethod,
  requested_uzs: intAs(Uzs),
  payable_uzs: intAs(Uzs),
  credited_uzs: Schema.NullOr(intAs(Uzs)),
  status: TopupStatus,
  receipt_key: Schema.NullOr(Schema.String),
  receipt_content_type: Schema.NullOr(Schema.String),
  receipt_size: Schema.NullOr(IntColumn),
  receipt_sha256: Schema.NullOr(Schema.String),
  admin_note: Schema.NullOr(Schema.String),
  payment_id: Schema.NullOr(intAs(PaymentId)),
  confirmed_by: Schema.NullOr(TopupConfirmation),
  expires_at: Schema.NullOr(DateColumn),
  created_at: DateColumn,
  updated_at: DateColumn
})

const toTopup = (row: typeof TopupRow.Type): Topup => ({
  id: row.id,
  userId: row.user_id,
  method: row.method,
  requestedUzs: row.requested_uzs,
  payableUzs: row.payable_uzs,
  creditedUzs: row.credited_uzs,
  status: row.status,
  receipt:
    row.receipt_key === null
      ? null
      : {
          key: row.receipt_key,
          contentType: row.receipt_content_type ?? "",
          size: row.receipt_size ?? 0,
          sha256: row.receipt_sha256
        },
  adminNote: row.admin_note,
  paymentId: row.payment_id,
  confirmedBy: row.confirmed_by,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

const topupRows = mapRows(rowDecoder("topups", TopupRow), toTopup)
const statusRows = rowDecoder("topups", Schema.Struct({ status: TopupStatus }))
const openCounts = rowDecoder("topups", Schema.Struct({ card_pending: IntColumn, reviews: IntColumn }))

// Advisory lock key ("topups" in ASCII) serialising the choice of payable amounts: ranges of different
// requested amounts overlap (10000+5 = 10005+0), so a lock per requested amount would not be enough.
const PAYABLE_LOCK = 0x746f70757073

/** What stands in the way of one payable amount (core's `PayableTaken`), one row per top-up. */
const payableClaims = rowDecoder(
  "topups",
  Schema.Struct({ payable_uzs: IntColumn, claim: Schema.Literals(["open", "quarantinedByOthers", "ownQuarantined"]) })
)

/**
 * `Topups` on the `topups` table. The payable amount of a card top-up is chosen by core's `choosePayable`
 * under a transaction-scoped advisory lock, over one read of what is taken in the requested range: amounts
 * held by open card top-ups (`pending`, or `review` after a receipt; partial unique index
 * `topups_open_payable_key`, migration 0004, which also stops a duplicate from a writer that skips the
 * lock) and amounts of card top-ups created or closed after the `quarantineSince` the service passes and
 * not confirmed by a bank payment (index `topups_closed_card_payable_idx`, migration 0005), split into the
 * owner's own cancelled, rejected or expired ones and everyone else's. The chosen amount is inserted in
 * the same transaction.
 */
export const PgTopups = {
  layer: Layer.effect(
    Topups,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const insertPending = Effect.fn("Topups.insertPending")(function* (input: {
        readonly userId: UserId
        readonly requestedUzs: Uzs
        readonly expiresAt: Date
        readonly quarantineSince: Date
        readonly now: Date
      }) {
        const { expiresAt, now, quarantineSince: since, requestedUzs, userId } = input
        const last = requestedUzs + PAYABLE_OFFSETS - 1
        const rows = yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`SELECT pg_advisory_xact_lock(${PAYABLE_LOCK})`
            // Each branch repeats its partial index's predicate, so both are range scans of an index.
            const claims = yield* payableClaims.all(
              yield* sql`
              SELECT payable_uzs, 'open' AS claim FROM topups
              WHERE (status = 'pending' OR (status = 'review' AND method = 'card'))
                AND payable_uzs BETWEEN ${requestedUzs} AND ${last}
              UNION ALL
              SELECT payable_uzs,
                     CASE WHEN user_id = ${userId} AND status <> 'paid' THEN 'ownQuarantined'
                          ELSE 'quarantinedByOthers' END
              FROM topups
              WHERE method = 'card' AND status IN ('paid', 'cancelled', 'rejected', 'expired')
                AND confirmed_by IS DISTINCT FROM 'payment'
                AND payable_uzs BETWEEN ${requestedUzs} AND ${last}
                AND (updated_at > ${since} OR created_at > ${since})`
            )
            const payable = choosePayable(requestedUzs, payableTakenOf(claims.map((r) => [r.claim, r.payable_uzs])))
            if (Option.isNone(payable)) return yield* new TopupPayableExhausted({ requested: requestedUzs })
            return yield* sql`
            INSERT INTO topups (user_id, method, requested_uzs, payable_uzs, status, expires_at, created_at, updated_at)
            VALUES (${userId}, 'card', ${requestedUzs}, ${payable.value}, 'pending', ${expiresAt}, ${now}, ${now})
            RETURNING *`
          })
        )
        return yield* topupRows.one(rows)
      }, orDieSql)

      const insertReview = Effect.fn("Topups.insertReview")(function* (input: {
        readonly userId: UserId
        readonly requestedUzs: Uzs
        readonly receipt: ReceiptInfo
        readonly now: Date
      }) {
        const { now, receipt, requestedUzs, userId } = input
        return yield* topupRows.one(
          yield* sql`
          INSERT INTO topups (user_id, method, requested_uzs, payable_uzs, status,
                              receipt_key, receipt_content_type, receipt_size, receipt_sha256, created_at, updated_at)
          VALUES (${userId}, 'receipt', ${requestedUzs}, ${requestedUzs}, 'review',
                  ${receipt.key}, ${receipt.contentType}, ${receipt.size}, ${receipt.sha256}, ${now}, ${now})
          RETURNING *`
        )
      }, orDieSql)

      const attachReceipt = Effect.fn("Topups.attachReceipt")(function* (input: {
        readonly userId: UserId
        readonly amountUzs: Uzs
        readonly receipt: ReceiptInfo
        readonly now: Date
      }) {
        const { amountUzs, now, receipt, userId } = input
        // FOR UPDATE waits for a concurrent confirmation, cancel or expiry of the chosen row and then
        // re-checks it; the outer status test keeps the UPDATE conditional all the same.
        return yield* topupRows.first(
          yield* sql`
          WITH target AS (
            SELECT id FROM topups
            WHERE user_id = ${userId} AND status = 'pending' AND method = 'card' AND expires_at > ${now}
              AND (payable_uzs = ${amountUzs} OR requested_uzs = ${amountUzs})
            ORDER BY (payable_uzs = ${amountUzs}) DESC, id DESC
            LIMIT 1
            FOR UPDATE)
          UPDATE topups t SET
            status = 'review',
            receipt_key = ${receipt.key},
            receipt_content_type = ${receipt.contentType},
            receipt_size = ${receipt.size},
            receipt_sha256 = ${receipt.sha256},
            updated_at = ${now}
          FROM target
          WHERE t.id = target.id AND t.status = 'pending'
          RETURNING t.*`
        )
      }, orDieSql)

      const find = Effect.fn("Topups.find")(function* (topupId: TopupId) {
        return yield* topupRows.first(yield* sql`SELECT * FROM topups WHERE id = ${topupId}`)
      }, orDieSql)

      const countOpen = Effect.fn("Topups.countOpen")(function* (userId: UserId, now: Date) {
        const [row] = yield* openCounts.all(
          yield* sql`
          SELECT count(*) FILTER (WHERE status = 'pending' AND method = 'card' AND expires_at > ${now}) AS card_pending,
                 count(*) FILTER (WHERE status = 'review') AS reviews
          FROM topups WHERE user_id = ${userId} AND status IN ('pending', 'review')`
        )
        return { cardPending: row?.card_pending ?? 0, reviews: row?.reviews ?? 0 }
      }, orDieSql)

      const listByReceiptSha256 = Effect.fn("Topups.listByReceiptSha256")(function* (sha256s: ReadonlyArray<string>) {
        if (sha256s.length === 0) return []
        return yield* topupRows.all(
          yield* sql`
          SELECT * FROM topups WHERE receipt_sha256 = ANY(${[...sha256s]}::text[])
          ORDER BY id DESC LIMIT 100`
        )
      }, orDieSql)

      const list = Effect.fn("Topups.list")(function* (filter: TopupFilter) {
        const where = sql.and([
          ...(filter.userId === undefined ? [] : [sql`user_id = ${filter.userId}`]),
          ...(filter.status === undefined ? [] : [sql`status = ANY(${[...filter.status]}::text[])`]),
          ...(filter.method === undefined ? [] : [sql`method = ${filter.method}`]),
          ...(filter.beforeId === undefined ? [] : [sql`id < ${filter.beforeId}`]),
          ...(filter.createdAfter === undefined ? [] : [sql`created_at > ${filter.createdAfter}`])
        ])
        const rows = yield* sql`
          SELECT *, count(*) OVER () AS total FROM topups WHERE ${where}
          ORDER BY id DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`
        const total = yield* pageTotal(rows, filter.offset, sql`SELECT count(*) AS total FROM topups WHERE ${where}`)
        return { items: yield* topupRows.all(rows), total } satisfies Page<Topup>
      }, orDieSql)

      const transition = Effect.fn("Topups.transition")(function* (
        topupId: TopupId,
        from: ReadonlyArray<TopupStatus>,
        to: TopupStatus,
        patch: TopupPatch,
        now: Date
      ) {
        // Absent patch fields keep their value; `adminNote: null` clears the note.
        const [row] = yield* topupRows.all(
          yield* sql`
          UPDATE topups SET
            status = ${to},
            credited_uzs = ${patch.creditedUzs === undefined ? sql`credited_uzs` : sql`${patch.creditedUzs}`},
            admin_note = ${patch.adminNote === undefined ? sql`admin_note` : sql`${patch.adminNote}`},
            payment_id = ${patch.paymentId === undefined ? sql`payment_id` : sql`${patch.paymentId}`},
            confirmed_by = ${patch.confirmedBy === undefined ? sql`confirmed_by` : sql`${patch.confirmedBy}`},
            updated_at = ${now}
          WHERE id = ${topupId} AND status = ANY(${[...from]}::text[])
          RETURNING *`
        )
        if (row !== undefined) return row
        const [current] = yield* statusRows.all(yield* sql`SELECT status FROM topups WHERE id = ${topupId}`)
        if (current === undefined) return yield* new TopupNotFound({ topupId })
        return yield* new TopupTransitionInvalid({ topupId, from: current.status, to })
      }, orDieSql)

      const findLivePendingByPayable = Effect.fn("Topups.findLivePendingByPayable")(function* (amount: Uzs, now: Date) {
        return yield* topupRows.all(
          yield* sql`
          SELECT * FROM topups
          WHERE status = 'pending' AND method = 'card' AND payable_uzs = ${amount} AND expires_at > ${now}
          ORDER BY id`
        )
      }, orDieSql)

      // Core's `holdsPayable`, spelled as the predicate of `topups_open_payable_key` so it reads that index.
      const findHoldingPayable = Effect.fn("Topups.findHoldingPayable")(function* (amount: Uzs) {
        return yield* topupRows.all(
          yield* sql`
          SELECT * FROM topups
          WHERE payable_uzs = ${amount} AND (status = 'pending' OR (status = 'review' AND method = 'card'))
          ORDER BY id`
        )
      }, orDieSql)

      const expireDue = Effect.fn("Topups.expireDue")(function* (now: Date) {
        // The conditional UPDATE re-checks the status after waiting for a row lock: a top-up confirmed
        // meanwhile is skipped, and two concurrent callers never both expire one top-up.
        const rows = yield* topupRows.all(
          yield* sql`
          UPDATE topups SET status = 'expired', updated_at = ${now}
          WHERE status = 'pending' AND expires_at <= ${now}
          RETURNING *`
        )
        return rows.toSorted((a, b) => a.id - b.id)
      }, orDieSql)

      return Topups.of({
        insertPending,
        insertReview,
        attachReceipt,
        find,
        countOpen,
        listByReceiptSha256,
        list,
        transition,
        findLivePendingByPayable,
        findHoldingPayable,
        expireDue
      })
    })
  )
} as const
