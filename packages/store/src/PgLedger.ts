import {
  InsufficientBalance,
  LedgerCause,
  type LedgerEntry,
  LedgerEntryId,
  type LedgerPosting,
  type Page,
  type PageRequest,
  SignedUzs,
  UserId,
  Uzs
} from "@resale/core"
import { Ledger } from "@resale/core/ports"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, intAs, pageTotal, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** A row of `ledger_entries`, decoded into the core's `LedgerEntry`. */
const EntryRow = Schema.Struct({
  id: intAs(LedgerEntryId),
  userId: intAs(UserId),
  amount: intAs(SignedUzs),
  cause: LedgerCause,
  causeId: Schema.String,
  note: Schema.NullOr(Schema.String),
  balanceAfter: intAs(Uzs),
  createdAt: DateColumn
}).pipe(
  Schema.encodeKeys({
    userId: "user_id",
    amount: "amount_uzs",
    causeId: "cause_id",
    balanceAfter: "balance_after_uzs",
    createdAt: "created_at"
  })
)

const entryRows = rowDecoder("ledger_entries", EntryRow)
const balanceRows = rowDecoder("accounts", Schema.Struct({ balance_uzs: intAs(Uzs) }))

/**
 * `Ledger` on `ledger_entries` plus the running balance on `accounts`, moved together by ONE statement:
 * lock the account row, insert the entry only if the new balance is >= 0 (ON CONFLICT on the unique
 * (cause, cause_id) does nothing), and add the amount to the balance only if the entry was inserted.
 * So a refused debit and a repeated cause write nothing, and concurrent debits serialise on the row lock.
 * The CHECK (balance_uzs >= 0) on accounts is the last line of defence.
 */
export const PgLedger = {
  layer: Layer.effect(
    Ledger,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const post = Effect.fn("Ledger.post")(function* (posting: LedgerPosting) {
        const { amount, cause, causeId, userId } = posting
        const note = posting.note ?? null
        const inserted = yield* entryRows.first(
          yield* sql`
          WITH account AS (
            SELECT balance_uzs FROM accounts WHERE user_id = ${userId} FOR UPDATE
          ), entry AS (
            INSERT INTO ledger_entries (user_id, amount_uzs, cause, cause_id, note, balance_after_uzs)
            SELECT ${userId}, ${amount}, ${cause}, ${causeId}, ${note}, balance_uzs + ${amount}
            FROM account WHERE balance_uzs + ${amount} >= 0
            ON CONFLICT (cause, cause_id) DO NOTHING
            RETURNING *
          ), moved AS (
            UPDATE accounts SET balance_uzs = entry.balance_after_uzs
            FROM entry WHERE accounts.user_id = entry.user_id
          )
          SELECT * FROM entry`
        )
        if (Option.isSome(inserted)) return { entry: inserted.value, created: true }
        // Nothing written: the cause was recorded before (perhaps by a transaction that committed while this
        // statement waited, hence a fresh statement to see it), or the balance is too low, or no account.
        const existing = yield* entryRows.first(
          yield* sql`SELECT * FROM ledger_entries WHERE cause = ${cause} AND cause_id = ${causeId}`
        )
        if (Option.isSome(existing)) return { entry: existing.value, created: false }
        const [account] = yield* balanceRows.all(yield* sql`SELECT balance_uzs FROM accounts WHERE user_id = ${userId}`)
        if (account === undefined) return yield* Effect.die(new Error(`user ${userId} has no ledger account`))
        return yield* new InsufficientBalance({ userId, balance: account.balance_uzs, required: Uzs.make(-amount) })
      }, orDieSql)

      const balance = Effect.fn("Ledger.balance")(function* (userId: UserId) {
        const [row] = yield* balanceRows.all(yield* sql`SELECT balance_uzs FROM accounts WHERE user_id = ${userId}`)
        return row?.balance_uzs ?? Uzs.make(0)
      }, orDieSql)

      const entries = Effect.fn("Ledger.entries")(function* (userId: UserId, page: PageRequest) {
        const rows = yield* sql`
          SELECT *, count(*) OVER () AS total FROM ledger_entries WHERE user_id = ${userId}
          ORDER BY id DESC LIMIT ${page.limit} OFFSET ${page.offset}`
        const total = yield* pageTotal(
          rows,
          page.offset,
          sql`SELECT count(*) AS total FROM ledger_entries WHERE user_id = ${userId}`
        )
        return { items: yield* entryRows.all(rows), total } satisfies Page<LedgerEntry>
      }, orDieSql)

      return Ledger.of({ post, balance, entries })
    })
  )
} as const
