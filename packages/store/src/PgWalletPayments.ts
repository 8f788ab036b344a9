import { type Nanoton, PreparedBatch } from "@resale/core/ports/Blockchain.ts"
import {
  type NewWalletPayment,
  type PaymentSettlement,
  WalletBatchBusy,
  WalletBatchState,
  WalletPayments,
  WalletPaymentState
} from "@resale/core/ports/WalletPayments.ts"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, IntColumn, NanotonColumn, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

// jsonb cannot hold a bigint: amounts travel as decimal text.
const preparedJson = (prepared: PreparedBatch) =>
  JSON.stringify({ ...prepared, transfers: prepared.transfers.map((t) => ({ ...t, amount: String(t.amount) })) })

/** The `prepared` jsonb column: the core's `PreparedBatch`, its transfers' amounts read back from text. */
const PreparedColumn = Schema.Struct({
  ...PreparedBatch.fields,
  transfers: Schema.Array(Schema.Struct({ to: Schema.String, amount: NanotonColumn, bodyHash: Schema.String }))
})

/** A row of `wallet_batches`, decoded into the core's `WalletBatch`. */
const BatchRow = Schema.Struct({
  id: IntColumn,
  network: Schema.String,
  walletAddress: Schema.String,
  state: WalletBatchState,
  prepared: PreparedColumn,
  txHash: Schema.NullOr(Schema.String),
  fee: Schema.NullOr(NanotonColumn),
  createdAt: DateColumn
}).pipe(
  Schema.encodeKeys({ walletAddress: "wallet_address", txHash: "tx_hash", fee: "fee_nano", createdAt: "created_at" })
)

/** A row of `wallet_payments`, decoded into the core's `WalletPayment`. */
const PaymentRow = Schema.Struct({
  id: IntColumn,
  key: Schema.String,
  walletAddress: Schema.String,
  batchId: Schema.NullOr(IntColumn),
  kind: Schema.Literals(["stars", "premium"]),
  state: WalletPaymentState,
  reqId: Schema.String,
  ref: Schema.String,
  payTo: Schema.String,
  amount: NanotonColumn,
  validUntil: IntColumn,
  txHash: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  createdAt: DateColumn,
  updatedAt: DateColumn
}).pipe(
  Schema.encodeKeys({
    walletAddress: "wallet_address",
    batchId: "batch_id",
    reqId: "req_id",
    payTo: "pay_to",
    amount: "amount_nano",
    validUntil: "valid_until",
    txHash: "tx_hash",
    createdAt: "created_at",
    updatedAt: "updated_at"
  })
)

const batchRows = rowDecoder("wallet_batches", BatchRow)
const paymentRows = rowDecoder("wallet_payments", PaymentRow)
const ids = rowDecoder("wallet_payments", Schema.Struct({ id: IntColumn }))

/**
 * `WalletPayments` on `wallet_batches` / `wallet_payments`. A batch and its payments go in one
 * transaction; the partial unique indexes on open batches refuse one more open batch of a wallet
 * than its slots (one for a seqno wallet) and a second open message with the same query id,
 * whichever process asks; a key already open or paid refuses the whole batch.
 */
export const PgWalletPayments = {
  layer: Layer.effect(
    WalletPayments,
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const busy = (message: string) => new WalletBatchBusy({ message })

      const record = Effect.fn("WalletPayments.record")(
        function* (
          network: string,
          prepared: PreparedBatch,
          payments: ReadonlyArray<NewWalletPayment>,
          now: Date,
          slots = 1
        ) {
          // A seqno leaves room for one message in flight, whatever the caller asks.
          const open = prepared.queryId === undefined ? 1 : Math.max(1, Math.floor(slots))
          return yield* sql.withTransaction(
            Effect.gen(function* () {
              // The lowest free slot. Two transactions that picked the same one meet at the unique index: the
              // later one looks again (it now sees the other's row), at most once per slot.
              const insert = sql`
            INSERT INTO wallet_batches (network, wallet_address, state, seqno, external_hash, valid_until, prepared, payments, created_at, updated_at, slot, query_id)
            SELECT ${network}, ${prepared.wallet}, 'signed', ${prepared.seqno}, ${prepared.externalHash}, ${prepared.validUntil},
                   ${preparedJson(prepared)}::jsonb, ${payments.length}, ${now}, ${now}, free.slot, ${prepared.queryId ?? null}
            FROM (
              SELECT n AS slot FROM generate_series(0, ${open - 1}) AS n
              WHERE NOT EXISTS (
                SELECT 1 FROM wallet_batches b
                WHERE b.wallet_address = ${prepared.wallet} AND b.state IN ('signed', 'sent') AND b.slot = n)
              ORDER BY n LIMIT 1) AS free
            ON CONFLICT DO NOTHING
            RETURNING *`
              let inserted = yield* insert
              for (let again = 1; again < open && inserted.length === 0; again++) inserted = yield* insert
              if (inserted.length === 0) {
                return yield* busy(
                  open === 1
                    ? "Another batch of this wallet is still open"
                    : `${open} batches of this wallet are still open, or one has this query id`
                )
              }
              const batch = yield* batchRows.one(inserted)
              // Every payment in one statement (a batch carries up to 255); positions follow the batch's order.
              const given = JSON.stringify(
                payments.map((p, position) => ({
                  key: p.key,
                  wallet_address: p.walletAddress,
                  position,
                  kind: p.kind,
                  req_id: p.reqId,
                  ref: p.ref,
                  pay_to: p.payTo,
                  amount_nano: String(p.amount),
                  valid_until: p.validUntil
                }))
              )
              const rows = yield* sql`
            INSERT INTO wallet_payments AS w (key, wallet_address, batch_id, position, kind, state, req_id, ref, pay_to, amount_nano, valid_until, created_at, updated_at)
            SELECT p.key, p.wallet_address, ${batch.id}, p.position, p.kind, 'open', p.req_id, p.ref, p.pay_to, p.amount_nano, p.valid_until, ${now}, ${now}
            FROM jsonb_to_recordset(${given}::jsonb)
              AS p(key text, wallet_address text, position int, kind text, req_id text, ref text, pay_to text, amount_nano bigint, valid_until bigint)
            ON CONFLICT (key) DO UPDATE SET
              wallet_address = EXCLUDED.wallet_address, batch_id = EXCLUDED.batch_id, position = EXCLUDED.position, kind = EXCLUDED.kind, state = 'open',
              req_id = EXCLUDED.req_id, ref = EXCLUDED.ref, pay_to = EXCLUDED.pay_to, amount_nano = EXCLUDED.amount_nano,
              valid_until = EXCLUDED.valid_until, tx_hash = NULL, error = NULL, updated_at = EXCLUDED.updated_at
            WHERE w.state = 'failed'
            RETURNING id`
              // A key open, paid or held already: the whole batch is refused (the transaction rolls back).
              if ((yield* ids.all(rows)).length !== payments.length)
                return yield* busy("A payment of the batch is open or paid already")
              return batch
            })
          )
        },
        (effect) => effect.pipe(Effect.catchTag("SqlError", (e) => Effect.die(e)))
      )

      const markSent = Effect.fn("WalletPayments.markSent")(function* (batchId: number, now: Date) {
        yield* sql`UPDATE wallet_batches SET state = 'sent', updated_at = ${now} WHERE id = ${batchId} AND state = 'signed'`
      }, orDieSql)

      // Every settlement of a batch in one statement.
      const settleRows = (payments: ReadonlyArray<PaymentSettlement>, now: Date, batchId: number) =>
        payments.length === 0
          ? Effect.void
          : Effect.asVoid(sql`
          UPDATE wallet_payments AS w SET state = s.state, tx_hash = s.tx_hash, error = s.error, updated_at = ${now}
          FROM jsonb_to_recordset(${JSON.stringify(payments.map((p) => ({ key: p.key, state: p.state, tx_hash: p.txHash ?? null, error: p.error ?? null })))}::jsonb)
            AS s(key text, state text, tx_hash text, error text)
          WHERE w.key = s.key AND w.state = 'open' AND w.batch_id = ${batchId}`)

      const settle = Effect.fn("WalletPayments.settle")(function* (
        batchId: number,
        outcome: { readonly state: WalletBatchState; readonly txHash: string | null; readonly fee: Nanoton | null },
        payments: ReadonlyArray<PaymentSettlement>,
        now: Date
      ) {
        yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`
            UPDATE wallet_batches SET state = ${outcome.state}, tx_hash = ${outcome.txHash},
              fee_nano = ${outcome.fee === null ? null : String(outcome.fee)}, updated_at = ${now}
            WHERE id = ${batchId} AND state IN ('signed', 'sent')`
            yield* settleRows(payments, now, batchId)
          })
        )
      }, orDieSql)

      const openBatches = Effect.fn("WalletPayments.openBatches")(function* (walletAddress: string) {
        const batches = yield* batchRows.all(
          yield* sql`
          SELECT * FROM wallet_batches WHERE wallet_address = ${walletAddress} AND state IN ('signed', 'sent') ORDER BY id`
        )
        return yield* Effect.forEach(batches, (batch) =>
          Effect.gen(function* () {
            // In the batch's order: payments are matched to its transfers by position.
            const payments = yield* paymentRows.all(
              yield* sql`SELECT * FROM wallet_payments WHERE batch_id = ${batch.id} ORDER BY position`
            )
            return { batch, payments }
          })
        )
      }, orDieSql)

      const find = Effect.fn("WalletPayments.find")(function* (key: string) {
        return yield* paymentRows.first(yield* sql`SELECT * FROM wallet_payments WHERE key = ${key}`)
      }, orDieSql)

      const findMany = Effect.fn("WalletPayments.findMany")(function* (keys: ReadonlyArray<string>) {
        if (keys.length === 0) return []
        return yield* paymentRows.all(yield* sql`SELECT * FROM wallet_payments WHERE key = ANY(${[...keys]}::text[])`)
      }, orDieSql)

      const batch = Effect.fn("WalletPayments.batch")(function* (id: number) {
        return yield* batchRows.first(yield* sql`SELECT * FROM wallet_batches WHERE id = ${id}`)
      }, orDieSql)

      return WalletPayments.of({
        record,
        markSent,
        settle,
        openBatches,
        find,
        findMany,
        batch
      })
    })
  )
}
