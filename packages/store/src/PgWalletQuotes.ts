import {
  type InsertResult,
  type NewWalletQuote,
  type WalletQuote,
  WalletQuoteKind,
  type WalletQuotePatch,
  WalletQuotes,
  isFinalQuoteState,
  OPEN_QUOTE_STATES,
  WalletQuoteState
} from "@resale/core/ports/WalletQuotes.ts"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, IntColumn, mapRows, NanotonColumn, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

const Confirm = Schema.Literals(["accepted", "refused", "unsent"])

const Row = Schema.Struct({
  id: IntColumn,
  orderId: Schema.String,
  network: Schema.Literals(["mainnet", "testnet", "sandbox"]),
  walletAddress: Schema.String,
  account: Schema.Struct({ address: Schema.String, publicKey: Schema.String, walletStateInit: Schema.String }),
  kind: WalletQuoteKind,
  fingerprint: Schema.String,
  recipient: Schema.String,
  units: Schema.NullOr(IntColumn),
  amount: Schema.NullOr(NanotonColumn),
  reqId: Schema.String,
  ref: Schema.String,
  payTo: Schema.String,
  payAmount: NanotonColumn,
  payload: Schema.String,
  validUntil: IntColumn,
  state: WalletQuoteState,
  boc: Schema.NullOr(Schema.String),
  confirm: Confirm,
  txHash: Schema.NullOr(Schema.String),
  paidAt: Schema.NullOr(IntColumn),
  note: Schema.NullOr(Schema.String),
  createdAt: DateColumn,
  updatedAt: DateColumn,
  settledAt: Schema.NullOr(DateColumn)
}).pipe(
  Schema.encodeKeys({
    orderId: "order_id",
    walletAddress: "wallet_address",
    amount: "amount_nano",
    reqId: "req_id",
    payTo: "pay_to",
    payAmount: "pay_amount_nano",
    validUntil: "valid_until",
    txHash: "tx_hash",
    paidAt: "paid_at",
    createdAt: "created_at",
    updatedAt: "updated_at",
    settledAt: "settled_at"
  })
)

const quotes = mapRows(rowDecoder("wallet_quotes", Row), (row): WalletQuote => row)

/**
 * `WalletQuotes` on `wallet_quotes`: inserts are `ON CONFLICT DO NOTHING` on the partial unique index
 * of latest quotes per (network, wallet, order id); replacing retires the previous latest quote in the
 * same transaction; every state change is a conditional UPDATE by id, so it happens once.
 */
export const PgWalletQuotes = {
  layer: Layer.effect(
    WalletQuotes,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const findLatest = Effect.fn("WalletQuotes.findLatest")(function* (key: {
        readonly network: string
        readonly walletAddress: string
        readonly orderId: string
      }) {
        return yield* quotes.first(
          yield* sql`
          SELECT * FROM wallet_quotes
          WHERE network = ${key.network} AND wallet_address = ${key.walletAddress} AND order_id = ${key.orderId} AND latest`
        )
      }, orDieSql)

      const add = (quote: NewWalletQuote, now: Date) =>
        sql`
          INSERT INTO wallet_quotes (order_id, network, wallet_address, account, kind, fingerprint, recipient, units,
                                     amount_nano, req_id, ref, pay_to, pay_amount_nano, payload, valid_until, state,
                                     created_at, updated_at)
          VALUES (${quote.orderId}, ${quote.network}, ${quote.walletAddress}, ${JSON.stringify(quote.account)}::jsonb,
                  ${quote.kind}, ${quote.fingerprint}, ${quote.recipient}, ${quote.units}, ${quote.amount},
                  ${quote.reqId}, ${quote.ref}, ${quote.payTo}, ${quote.payAmount}, ${quote.payload},
                  ${quote.validUntil}, 'awaiting_payment', ${now}, ${now})
          ON CONFLICT (network, wallet_address, order_id) WHERE latest DO NOTHING
          RETURNING *`.pipe(Effect.flatMap(quotes.first))

      const insert = Effect.fn("WalletQuotes.insert")(function* (
        quote: NewWalletQuote,
        now: Date,
        replacing?: WalletQuote
      ) {
        const inserted = yield* sql.withTransaction(
          Effect.gen(function* () {
            if (replacing !== undefined) {
              const retired = yield* sql`
                UPDATE wallet_quotes SET latest = false, updated_at = ${now}
                WHERE id = ${replacing.id} AND latest AND state = ${replacing.state}
                RETURNING id`
              if (retired.length === 0) return Option.none<WalletQuote>()
            }
            return yield* add(quote, now)
          })
        )
        if (Option.isSome(inserted)) return { _tag: "Inserted", quote: inserted.value } satisfies InsertResult
        const existing = yield* findLatest(quote)
        if (Option.isNone(existing)) return yield* Effect.die(new Error("wallet quote insert raced a replace"))
        return { _tag: "Existing", quote: existing.value } satisfies InsertResult
      }, orDieSql)

      const settle = Effect.fn("WalletQuotes.settle")(function* (
        id: number,
        from: ReadonlyArray<WalletQuote["state"]>,
        to: WalletQuote["state"],
        patch: WalletQuotePatch,
        now: Date
      ) {
        const set: Record<string, unknown> = { state: to, updated_at: now }
        if (isFinalQuoteState(to)) set["settled_at"] = now
        if (patch.confirm !== undefined) set["confirm"] = patch.confirm
        if (patch.txHash !== undefined) set["tx_hash"] = patch.txHash
        if (patch.paidAt !== undefined) set["paid_at"] = patch.paidAt
        if (patch.note !== undefined) set["note"] = patch.note
        return yield* quotes.first(
          yield* sql`
          UPDATE wallet_quotes SET ${sql.update(set)}
          WHERE id = ${id} AND state IN ${sql.in(from)}
          RETURNING *`
        )
      }, orDieSql)

      const report = Effect.fn("WalletQuotes.report")(function* (id: number, boc: string, now: Date) {
        return yield* quotes.first(
          yield* sql`
          UPDATE wallet_quotes SET boc = ${boc}, updated_at = ${now}
          WHERE id = ${id} AND boc IS NULL
          RETURNING *`
        )
      }, orDieSql)

      const listOpen = Effect.fn("WalletQuotes.listOpen")(function* (limit: number) {
        return yield* quotes.all(
          yield* sql`
          SELECT * FROM wallet_quotes WHERE state IN ${sql.in(OPEN_QUOTE_STATES)} AND latest
          ORDER BY created_at, id LIMIT ${limit}`
        )
      }, orDieSql)

      return WalletQuotes.of({ insert, findLatest, settle, report, listOpen })
    })
  )
}
