import type { DirectKind, DirectState } from "@resale/core/direct/DirectPurchase.ts"
import type { Nanoton } from "@resale/core/money/Nanoton.ts"
import type { Page, PageRequest } from "@resale/core/Page.ts"
import type { PreparedTransfer, WalletVersion } from "@resale/core/ports/Blockchain.ts"
import {
  type ClaimResult,
  type DirectPurchaseFilter,
  DirectPurchaseRecords,
  type DirectPurchasePatch,
  type DirectPurchaseRecord,
  DirectRecordConflict,
  DirectWalletBusy,
  type NewDirectPurchase
} from "@resale/core/ports/DirectPurchaseRecords.ts"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { isSqlError } from "effect/sql/SqlError"
import { date, dateOrNull, int, orDieSql, totalOf } from "./SqlValues.ts"

interface Row {
  readonly id: bigint | string | number
  readonly order_id: string
  readonly kind: string
  readonly state: string
  readonly fingerprint: string
  readonly network: string
  readonly wallet_address: string
  readonly wallet_version: string
  readonly recipient: string
  readonly amount_nano: bigint | null
  readonly units: number | null
  readonly comment: string | null
  readonly marketplace_req_id: string | null
  readonly ref: string | null
  readonly pay_to: string | null
  readonly pay_amount_nano: bigint | null
  readonly prepared: (Omit<PreparedTransfer, "amount"> & { readonly amount: string }) | null
  readonly tx_hash: string | null
  readonly fee_nano: bigint | null
  readonly wallet_lock: string | null
  readonly error_reason: string | null
  readonly error_message: string | null
  readonly attempts: number
  readonly created_at: Date
  readonly updated_at: Date
  readonly completed_at: Date | null
}

const nano = (value: bigint | string | null): Nanoton | null => value === null ? null : BigInt(value) as Nanoton

const toRecord = (row: Row): DirectPurchaseRecord => ({
  id: Number(row.id),
  orderId: row.order_id,
  kind: row.kind as DirectKind,
  state: row.state as DirectState,
  fingerprint: row.fingerprint,
  network: row.network as DirectPurchaseRecord["network"],
  walletAddress: row.wallet_address,
  walletVersion: row.wallet_version as WalletVersion,
  recipient: row.recipient,
  amount: nano(row.amount_nano),
  units: row.units === null ? null : int(row.units),
  comment: row.comment,
  marketplaceReqId: row.marketplace_req_id,
  ref: row.ref,
  payTo: row.pay_to,
  payAmount: nano(row.pay_amount_nano),
  prepared: row.prepared === null ? null : { ...row.prepared, amount: BigInt(row.prepared.amount) as Nanoton },
  txHash: row.tx_hash,
  fee: nano(row.fee_nano),
  walletLocked: row.wallet_lock !== null,
  errorReason: row.error_reason,
  errorMessage: row.error_message,
  attempts: int(row.attempts),
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at),
  completedAt: dateOrNull(row.completed_at)
})

// jsonb cannot hold a bigint: the amount travels as decimal text.
const preparedJson = (prepared: PreparedTransfer) => JSON.stringify({ ...prepared, amount: String(prepared.amount) })

const RELEASES: ReadonlyArray<DirectState> = ["done", "failed", "unknown"]

/**
 * `DirectPurchaseRecords` on `direct_purchases`. Claims are `INSERT … ON CONFLICT DO NOTHING` on the
 * partial unique index of latest records per (network, wallet, order id); superseding retires the
 * previous record and inserts the new one in one transaction; transitions are conditional UPDATEs by
 * record id; the wallet lock is a partial unique index, so a second in-flight payment of one wallet is
 * refused by PostgreSQL itself, whichever process asks.
 */
export const PgDirectPurchaseRecords = {
  layer: Layer.effect(
    DirectPurchaseRecords,
    Effect.gen(function*() {
      const sql = yield* SqlClient

      const find = Effect.fn("DirectPurchaseRecords.find")(function*(id: number) {
        const [row] = yield* sql<Row>`SELECT * FROM direct_purchases WHERE id = ${id}`
        return row === undefined ? Option.none() : Option.some(toRecord(row))
      }, orDieSql)

      const findLatest = Effect.fn("DirectPurchaseRecords.findLatest")(function*(
        key: { readonly network: string; readonly walletAddress: string; readonly orderId: string }
      ) {
        const [row] = yield* sql<Row>`
          SELECT * FROM direct_purchases
          WHERE network = ${key.network} AND wallet_address = ${key.walletAddress} AND order_id = ${key.orderId} AND latest`
        return row === undefined ? Option.none() : Option.some(toRecord(row))
      }, orDieSql)

      const findByOrderId = Effect.fn("DirectPurchaseRecords.findByOrderId")(function*(orderId: string) {
        const rows = yield* sql<Row>`SELECT * FROM direct_purchases WHERE order_id = ${orderId} ORDER BY created_at DESC, id DESC`
        return rows.map(toRecord)
      }, orDieSql)

      // `attempts` counts the orders a wallet ran under one id.
      const insert = (record: NewDirectPurchase, now: Date, attempts = 1) =>
        sql<Row>`
          INSERT INTO direct_purchases (order_id, kind, state, fingerprint, network, wallet_address, wallet_version,
                                        recipient, amount_nano, units, comment, attempts, created_at, updated_at)
          VALUES (${record.orderId}, ${record.kind}, 'pending', ${record.fingerprint}, ${record.network},
                  ${record.walletAddress}, ${record.walletVersion}, ${record.recipient}, ${record.amount},
                  ${record.units}, ${record.comment}, ${attempts}, ${now}, ${now})
          ON CONFLICT (network, wallet_address, order_id) WHERE latest DO NOTHING
          RETURNING *`

      const claim = Effect.fn("DirectPurchaseRecords.claim")(function*(record: NewDirectPurchase, now: Date) {
        for (let round = 0; round < 3; round++) {
          const [inserted] = yield* insert(record, now)
          if (inserted !== undefined) return { _tag: "Claimed", record: toRecord(inserted) } satisfies ClaimResult
          const existing = yield* findLatest(record)
          if (Option.isSome(existing)) return { _tag: "Existing", record: existing.value } satisfies ClaimResult
          // Superseded between the two statements: try again.
        }
        return yield* Effect.die(new Error("direct purchase claim kept racing a supersede"))
      }, orDieSql)

      const supersede = Effect.fn("DirectPurchaseRecords.supersede")(function*(
        previous: DirectPurchaseRecord,
        record: NewDirectPurchase,
        now: Date
      ) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const retired = yield* sql`
            UPDATE direct_purchases SET latest = false
            WHERE id = ${previous.id} AND latest AND state IN ('done', 'failed')
            RETURNING id`
          if (retired.length === 0) return Option.none<DirectPurchaseRecord>()
          const [inserted] = yield* insert(record, now, previous.attempts + 1)
          return inserted === undefined ? Option.none<DirectPurchaseRecord>() : Option.some(toRecord(inserted))
        }))
      }, orDieSql)

      const transition = Effect.fn("DirectPurchaseRecords.transition")(function*(
        id: number,
        from: ReadonlyArray<DirectState>,
        to: DirectState,
        patch: DirectPurchasePatch,
        now: Date
      ) {
        const set: Record<string, unknown> = { state: to, updated_at: now }
        const put = (column: string, value: unknown) => {
          if (value !== undefined) set[column] = value
        }
        put("marketplace_req_id", patch.marketplaceReqId)
        put("ref", patch.ref)
        put("pay_to", patch.payTo)
        put("pay_amount_nano", patch.payAmount)
        if (patch.prepared !== undefined) {
          set["seqno"] = patch.prepared?.seqno ?? null
          set["external_hash"] = patch.prepared?.externalHash ?? null
          set["valid_until"] = patch.prepared?.validUntil ?? null
        }
        put("tx_hash", patch.txHash)
        put("fee_nano", patch.fee)
        put("error_reason", patch.errorReason)
        put("error_message", patch.errorMessage)
        put("completed_at", patch.completedAt)
        const lock = RELEASES.includes(to) || patch.lock === false
          ? sql`, wallet_lock = NULL`
          : patch.lock === true
          ? sql`, wallet_lock = wallet_address`
          : sql``
        const prepared = patch.prepared === undefined
          ? sql``
          : sql`, prepared = ${patch.prepared === null ? null : preparedJson(patch.prepared)}::jsonb`
        const statement = sql<Row>`
          UPDATE direct_purchases SET ${sql.update(set)} ${prepared} ${lock}
          WHERE id = ${id} AND state IN ${sql.in(from)}
          RETURNING *`
        // Only taking the lock can be refused; inside a caller's transaction the attempt goes in a savepoint,
        // so a refusal leaves that transaction usable. Alone, a plain statement is enough (and 3x cheaper).
        const outer = yield* Effect.serviceOption(sql.transactionService)
        const updated = yield* (patch.lock === true && Option.isSome(outer) ? sql.withTransaction(statement) : statement).pipe(
          Effect.catchIf(
            (e) => isSqlError(e) && e.reason._tag === "UniqueViolation",
            () => Effect.succeed("busy" as const)
          )
        )
        if (updated === "busy") {
          const current = yield* find(id)
          return yield* new DirectWalletBusy({ walletAddress: Option.match(current, { onNone: () => "", onSome: (r) => r.walletAddress }) })
        }
        const [row] = updated
        if (row !== undefined) return toRecord(row)
        const current = yield* find(id)
        return yield* new DirectRecordConflict({
          id,
          ...Option.match(current, { onNone: () => ({}), onSome: (r) => ({ state: r.state }) })
        })
      }, orDieSql)

      const listUnresolved = Effect.fn("DirectPurchaseRecords.listUnresolved")(function*(staleBefore: Date, limit: number) {
        const rows = yield* sql<Row>`
          SELECT * FROM direct_purchases
          WHERE state = 'unknown' OR (state IN ('pending', 'sending', 'sent') AND updated_at <= ${staleBefore})
          ORDER BY updated_at
          LIMIT ${limit}`
        return rows.map(toRecord)
      }, orDieSql)

      const list = Effect.fn("DirectPurchaseRecords.list")(function*(filter: DirectPurchaseFilter, page: PageRequest) {
        const where = sql.and([
          ...(filter.state === undefined ? [] : [sql`state = ${filter.state}`]),
          ...(filter.kind === undefined ? [] : [sql`kind = ${filter.kind}`])
        ])
        const rows = yield* sql<Row & { readonly total: bigint }>`
          SELECT *, count(*) OVER () AS total FROM direct_purchases WHERE ${where}
          ORDER BY created_at DESC, id DESC
          LIMIT ${page.limit} OFFSET ${page.offset}`
        // Past the last row the window count is gone with the rows: count apart.
        const total = rows.length > 0 || page.offset === 0
          ? totalOf(rows)
          : int((yield* sql<{ n: bigint }>`SELECT count(*) AS n FROM direct_purchases WHERE ${where}`)[0]?.n ?? 0)
        return { items: rows.map(toRecord), total } satisfies Page<DirectPurchaseRecord>
      }, orDieSql)

      return DirectPurchaseRecords.of({ claim, supersede, transition, find, findLatest, findByOrderId, listUnresolved, list })
    })
  )
} as const
