import { DirectKind, DirectState } from "@resale/core/direct/DirectPurchase.ts"
import type { Page, PageRequest } from "@resale/core/Page.ts"
import { PreparedTransfer, WalletVersion } from "@resale/core/ports/Blockchain.ts"
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
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { isSqlError } from "effect/sql/SqlError"
import { DateColumn, IntColumn, mapRows, NanotonColumn, pageTotal, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** The `prepared` jsonb column: the core's `PreparedTransfer`, its amount read back from decimal text. */
const PreparedColumn = Schema.Struct({ ...PreparedTransfer.fields, amount: NanotonColumn })

/** A row of `direct_purchases`; `wallet_lock` (the address while held) becomes `walletLocked` below. */
const Row = Schema.Struct({
  id: IntColumn,
  orderId: Schema.String,
  kind: DirectKind,
  state: DirectState,
  fingerprint: Schema.String,
  network: Schema.Literals(["mainnet", "testnet", "sandbox"]),
  walletAddress: Schema.String,
  walletVersion: WalletVersion,
  recipient: Schema.String,
  amount: Schema.NullOr(NanotonColumn),
  units: Schema.NullOr(IntColumn),
  comment: Schema.NullOr(Schema.String),
  marketplaceReqId: Schema.NullOr(Schema.String),
  ref: Schema.NullOr(Schema.String),
  payTo: Schema.NullOr(Schema.String),
  payAmount: Schema.NullOr(NanotonColumn),
  prepared: Schema.NullOr(PreparedColumn),
  txHash: Schema.NullOr(Schema.String),
  fee: Schema.NullOr(NanotonColumn),
  walletLock: Schema.NullOr(Schema.String),
  errorReason: Schema.NullOr(Schema.String),
  errorMessage: Schema.NullOr(Schema.String),
  attempts: IntColumn,
  createdAt: DateColumn,
  updatedAt: DateColumn,
  completedAt: Schema.NullOr(DateColumn)
}).pipe(
  Schema.encodeKeys({
    orderId: "order_id",
    walletAddress: "wallet_address",
    walletVersion: "wallet_version",
    amount: "amount_nano",
    marketplaceReqId: "marketplace_req_id",
    payTo: "pay_to",
    payAmount: "pay_amount_nano",
    txHash: "tx_hash",
    fee: "fee_nano",
    walletLock: "wallet_lock",
    errorReason: "error_reason",
    errorMessage: "error_message",
    createdAt: "created_at",
    updatedAt: "updated_at",
    completedAt: "completed_at"
  })
)

const records = mapRows(
  rowDecoder("direct_purchases", Row),
  ({ walletLock, ...record }): DirectPurchaseRecord => ({ ...record, walletLocked: walletLock !== null })
)

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
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const find = Effect.fn("DirectPurchaseRecords.find")(function* (id: number) {
        return yield* records.first(yield* sql`SELECT * FROM direct_purchases WHERE id = ${id}`)
      }, orDieSql)

      const findLatest = Effect.fn("DirectPurchaseRecords.findLatest")(function* (key: {
        readonly network: string
        readonly walletAddress: string
        readonly orderId: string
      }) {
        return yield* records.first(
          yield* sql`
          SELECT * FROM direct_purchases
          WHERE network = ${key.network} AND wallet_address = ${key.walletAddress} AND order_id = ${key.orderId} AND latest`
        )
      }, orDieSql)

      const findByOrderId = Effect.fn("DirectPurchaseRecords.findByOrderId")(function* (orderId: string) {
        return yield* records.all(
          yield* sql`SELECT * FROM direct_purchases WHERE order_id = ${orderId} ORDER BY created_at DESC, id DESC`
        )
      }, orDieSql)

      // `attempts` counts the orders a wallet ran under one id.
      const insert = (record: NewDirectPurchase, now: Date, attempts = 1) =>
        sql`
          INSERT INTO direct_purchases (order_id, kind, state, fingerprint, network, wallet_address, wallet_version,
                                        recipient, amount_nano, units, comment, attempts, created_at, updated_at)
          VALUES (${record.orderId}, ${record.kind}, 'pending', ${record.fingerprint}, ${record.network},
                  ${record.walletAddress}, ${record.walletVersion}, ${record.recipient}, ${record.amount},
                  ${record.units}, ${record.comment}, ${attempts}, ${now}, ${now})
          ON CONFLICT (network, wallet_address, order_id) WHERE latest DO NOTHING
          RETURNING *`.pipe(Effect.flatMap(records.first))

      const claim = Effect.fn("DirectPurchaseRecords.claim")(function* (record: NewDirectPurchase, now: Date) {
        for (let round = 0; round < 3; round++) {
          const inserted = yield* insert(record, now)
          if (Option.isSome(inserted)) return { _tag: "Claimed", record: inserted.value } satisfies ClaimResult
          const existing = yield* findLatest(record)
          if (Option.isSome(existing)) return { _tag: "Existing", record: existing.value } satisfies ClaimResult
          // Superseded between the two statements: try again.
        }
        return yield* Effect.die(new Error("direct purchase claim kept racing a supersede"))
      }, orDieSql)

      const supersede = Effect.fn("DirectPurchaseRecords.supersede")(function* (
        previous: DirectPurchaseRecord,
        record: NewDirectPurchase,
        now: Date
      ) {
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const retired = yield* sql`
            UPDATE direct_purchases SET latest = false
            WHERE id = ${previous.id} AND latest AND state IN ('done', 'failed')
            RETURNING id`
            if (retired.length === 0) return Option.none<DirectPurchaseRecord>()
            return yield* insert(record, now, previous.attempts + 1)
          })
        )
      }, orDieSql)

      const transition = Effect.fn("DirectPurchaseRecords.transition")(function* (
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
        const lock =
          RELEASES.includes(to) || patch.lock === false
            ? sql`, wallet_lock = NULL`
            : patch.lock === true
              ? sql`, wallet_lock = wallet_address`
              : sql``
        const prepared =
          patch.prepared === undefined
            ? sql``
            : sql`, prepared = ${patch.prepared === null ? null : preparedJson(patch.prepared)}::jsonb`
        const statement = sql`
          UPDATE direct_purchases SET ${sql.update(set)} ${prepared} ${lock}
          WHERE id = ${id} AND state IN ${sql.in(from)}
          RETURNING *`
        // Only taking the lock can be refused; inside a caller's transaction the attempt goes in a savepoint,
        // so a refusal leaves that transaction usable. Alone, a plain statement is enough (and 3x cheaper).
        const outer = yield* Effect.serviceOption(sql.transactionService)
        const updated = yield* (
          patch.lock === true && Option.isSome(outer) ? sql.withTransaction(statement) : statement
        ).pipe(
          Effect.catchIf(
            (e) => isSqlError(e) && e.reason._tag === "UniqueViolation",
            () => Effect.succeed("busy" as const)
          )
        )
        if (updated === "busy") {
          const current = yield* find(id)
          return yield* new DirectWalletBusy({
            walletAddress: Option.match(current, { onNone: () => "", onSome: (r) => r.walletAddress })
          })
        }
        const row = yield* records.first(updated)
        if (Option.isSome(row)) return row.value
        const current = yield* find(id)
        return yield* new DirectRecordConflict({
          id,
          ...Option.match(current, { onNone: () => ({}), onSome: (r) => ({ state: r.state }) })
        })
      }, orDieSql)

      const listUnresolved = Effect.fn("DirectPurchaseRecords.listUnresolved")(function* (
        staleBefore: Date,
        limit: number
      ) {
        return yield* records.all(
          yield* sql`
          SELECT * FROM direct_purchases
          WHERE state = 'unknown' OR (state IN ('pending', 'sending', 'sent') AND updated_at <= ${staleBefore})
          ORDER BY updated_at
          LIMIT ${limit}`
        )
      }, orDieSql)

      const list = Effect.fn("DirectPurchaseRecords.list")(function* (filter: DirectPurchaseFilter, page: PageRequest) {
        const where = sql.and([
          ...(filter.state === undefined ? [] : [sql`state = ${filter.state}`]),
          ...(filter.kind === undefined ? [] : [sql`kind = ${filter.kind}`])
        ])
        const rows = yield* sql`
          SELECT *, count(*) OVER () AS total FROM direct_purchases WHERE ${where}
          ORDER BY created_at DESC, id DESC
          LIMIT ${page.limit} OFFSET ${page.offset}`
        // Past the last row the window count is gone with the rows: count apart.
        const total = yield* pageTotal(
          rows,
          page.offset,
          sql`SELECT count(*) AS total FROM direct_purchases WHERE ${where}`
        )
        return { items: yield* records.all(rows), total } satisfies Page<DirectPurchaseRecord>
      }, orDieSql)

      return DirectPurchaseRecords.of({
        claim,
        supersede,
        transition,
        find,
        findLatest,
        findByOrderId,
        listUnresolved,
        list
      })
    })
  )
} as const
