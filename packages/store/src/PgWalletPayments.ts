import { Nanoton, type PreparedBatch } from "@resale/core/ports/Blockchain.ts"
import {
  type NewWalletPayment,
  type PaymentSettlement,
  type WalletBatch,
  WalletBatchBusy,
  type WalletBatchState,
  type WalletPayment,
  WalletPayments,
  type WalletPaymentState
} from "@resale/core/ports/WalletPayments.ts"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { date, int, orDieSql } from "./SqlValues.ts"

interface BatchRow {
  readonly id: string
  readonly network: string
  readonly wallet_address: string
  readonly state: WalletBatchState
  readonly prepared: unknown
  readonly tx_hash: string | null
  readonly fee_nano: string | null
  readonly created_at: Date | string
}

interface PaymentRow {
  readonly id: string
  readonly key: string
  readonly wallet_address: string
  readonly batch_id: string | null
  readonly kind: "stars" | "premium"
  readonly state: WalletPaymentState
  readonly req_id: string
  readonly ref: string
  readonly pay_to: string
  readonly amount_nano: string
  readonly valid_until: string
  readonly tx_hash: string | null
  readonly error: string | null
  readonly created_at: Date | string
  readonly updated_at: Date | string
}

// jsonb cannot hold a bigint: amounts travel as decimal text.
const preparedJson = (prepared: PreparedBatch) =>
  JSON.stringify({ ...prepared, transfers: prepared.transfers.map((t) => ({ ...t, amount: String(t.amount) })) })

const preparedOf = (value: unknown): PreparedBatch => {
  const raw = (typeof value === "string" ? JSON.parse(value) : value) as PreparedBatch & { transfers: Array<{ amount: string }> }
  return { ...raw, transfers: raw.transfers.map((t) => ({ ...t, amount: Nanoton.make(BigInt(t.amount)) })) }
}

const toBatch = (row: BatchRow): WalletBatch => ({
  id: int(row.id),
  network: row.network,
  walletAddress: row.wallet_address,
  state: row.state,
  prepared: preparedOf(row.prepared),
  txHash: row.tx_hash,
  fee: row.fee_nano === null ? null : Nanoton.make(BigInt(row.fee_nano)),
  createdAt: date(row.created_at)
})

const toPayment = (row: PaymentRow): WalletPayment => ({
  id: int(row.id),
  key: row.key,
  walletAddress: row.wallet_address,
  batchId: row.batch_id === null ? null : int(row.batch_id),
  kind: row.kind,
  state: row.state,
  reqId: row.req_id,
  ref: row.ref,
  payTo: row.pay_to,
  amount: Nanoton.make(BigInt(row.amount_nano)),
  validUntil: int(row.valid_until),
  txHash: row.tx_hash,
  error: row.error,
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at)
})

/**
 * `WalletPayments` on `wallet_batches` / `wallet_payments`. A batch and its payments go in one
 * transaction; the partial unique index on open batches refuses a second open batch of a wallet,
 * whichever process asks, and a key already open or paid refuses the whole batch.
 */
export const PgWalletPayments = {
  layer: Layer.effect(
    WalletPayments,
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const busy = (message: string) => new WalletBatchBusy({ message })

      const record = Effect.fn("WalletPayments.record")(function*(
        network: string,
        prepared: PreparedBatch,
        payments: ReadonlyArray<NewWalletPayment>,
        now: Date
      ) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const inserted = yield* sql<BatchRow>`
            INSERT INTO wallet_batches (network, wallet_address, state, seqno, external_hash, valid_until, prepared, payments, created_at, updated_at)
            VALUES (${network}, ${prepared.wallet}, 'signed', ${prepared.seqno}, ${prepared.externalHash}, ${prepared.validUntil},
                    ${preparedJson(prepared)}::jsonb, ${payments.length}, ${now}, ${now})
            ON CONFLICT (wallet_address) WHERE state IN ('signed', 'sent') DO NOTHING
            RETURNING *`
          const batch = inserted[0]
          if (batch === undefined) return yield* busy("Another batch of this wallet is still open")
          for (const [position, p] of payments.entries()) {
            const rows = yield* sql`
              INSERT INTO wallet_payments AS w (key, wallet_address, batch_id, position, kind, state, req_id, ref, pay_to, amount_nano, valid_until, created_at, updated_at)
              VALUES (${p.key}, ${p.walletAddress}, ${batch.id}, ${position}, ${p.kind}, 'open', ${p.reqId}, ${p.ref}, ${p.payTo}, ${String(p.amount)}, ${p.validUntil}, ${now}, ${now})
              ON CONFLICT (key) DO UPDATE SET
                wallet_address = EXCLUDED.wallet_address, batch_id = EXCLUDED.batch_id, position = EXCLUDED.position, kind = EXCLUDED.kind, state = 'open',
                req_id = EXCLUDED.req_id, ref = EXCLUDED.ref, pay_to = EXCLUDED.pay_to, amount_nano = EXCLUDED.amount_nano,
                valid_until = EXCLUDED.valid_until, tx_hash = NULL, error = NULL, updated_at = EXCLUDED.updated_at
              WHERE w.state = 'failed'
              RETURNING id`
            // Open or paid already: the whole batch is refused (the transaction rolls back).
            if (rows.length === 0) return yield* busy(`The payment ${p.key} is open or paid already`)
          }
          return toBatch(batch)
        }))
      }, (effect) => effect.pipe(Effect.catchTag("SqlError", (e) => Effect.die(e))))

      const markSent = Effect.fn("WalletPayments.markSent")(function*(batchId: number, now: Date) {
        yield* sql`UPDATE wallet_batches SET state = 'sent', updated_at = ${now} WHERE id = ${batchId} AND state = 'signed'`
      }, orDieSql)

      const settleRows = (payments: ReadonlyArray<PaymentSettlement>, now: Date, batchId: number | null) =>
        Effect.forEach(payments, (p) =>
          sql`
            UPDATE wallet_payments SET state = ${p.state}, tx_hash = ${p.txHash ?? null}, error = ${p.error ?? null}, updated_at = ${now}
            WHERE key = ${p.key} AND state = 'open' AND ${batchId === null ? sql`batch_id IS NULL OR batch_id IN (SELECT id FROM wallet_batches WHERE state NOT IN ('signed', 'sent'))` : sql`batch_id = ${batchId}`}`, { discard: true })

      const settle = Effect.fn("WalletPayments.settle")(function*(
        batchId: number,
        outcome: { readonly state: WalletBatchState; readonly txHash: string | null; readonly fee: Nanoton | null },
        payments: ReadonlyArray<PaymentSettlement>,
        now: Date
      ) {
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`
            UPDATE wallet_batches SET state = ${outcome.state}, tx_hash = ${outcome.txHash},
              fee_nano = ${outcome.fee === null ? null : String(outcome.fee)}, updated_at = ${now}
            WHERE id = ${batchId} AND state IN ('signed', 'sent')`
          yield* settleRows(payments, now, batchId)
        }))
      }, orDieSql)

      const settlePayments = Effect.fn("WalletPayments.settlePayments")(function*(payments: ReadonlyArray<PaymentSettlement>, now: Date) {
        yield* settleRows(payments, now, null)
      }, orDieSql)

      const openBatches = Effect.fn("WalletPayments.openBatches")(function*(walletAddress: string) {
        const batches = yield* sql<BatchRow>`
          SELECT * FROM wallet_batches WHERE wallet_address = ${walletAddress} AND state IN ('signed', 'sent') ORDER BY id`
        return yield* Effect.forEach(batches, (row) =>
          Effect.gen(function*() {
            const batch = toBatch(row)
            // In the batch's order: payments are matched to its transfers by position.
            const rows = yield* sql<PaymentRow>`SELECT * FROM wallet_payments WHERE batch_id = ${batch.id} ORDER BY position`
            return { batch, payments: rows.map(toPayment) }
          }))
      }, orDieSql)

      const loosePayments = Effect.fn("WalletPayments.loosePayments")(function*(walletAddress: string) {
        const rows = yield* sql<PaymentRow>`
          SELECT p.* FROM wallet_payments p LEFT JOIN wallet_batches b ON b.id = p.batch_id
          WHERE p.wallet_address = ${walletAddress} AND p.state = 'open' AND (b.id IS NULL OR b.state NOT IN ('signed', 'sent'))`
        return rows.map(toPayment)
      }, orDieSql)

      const find = Effect.fn("WalletPayments.find")(function*(key: string) {
        const [row] = yield* sql<PaymentRow>`SELECT * FROM wallet_payments WHERE key = ${key}`
        return row === undefined ? Option.none() : Option.some(toPayment(row))
      }, orDieSql)

      const batch = Effect.fn("WalletPayments.batch")(function*(id: number) {
        const [row] = yield* sql<BatchRow>`SELECT * FROM wallet_batches WHERE id = ${id}`
        return row === undefined ? Option.none() : Option.some(toBatch(row))
      }, orDieSql)

      return WalletPayments.of({ record, markSent, settle, settlePayments, openBatches, loosePayments, find, batch })
    })
  )
}
