import {
  InsufficientBalance,
  Ledger,
  type LedgerCause,
  type LedgerEntry,
  type LedgerEntryId,
  type LedgerPosting,
  type Page,
  type PageRequest,
  type UserId
} from "@resale/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { date, id, int, orDieSql, signedUzs, totalOf, uzs } from "./SqlValues.ts"

interface EntryRow {
  readonly id: bigint
  readonly user_id: bigint
  readonly amount_uzs: bigint
  readonly cause: string
  readonly cause_id: string
  readonly note: string | null
  readonly balance_after_uzs: bigint
  readonly created_at: Date
}

const toEntry = (row: EntryRow): LedgerEntry => ({
  id: id<LedgerEntryId>(row.id),
  userId: id<UserId>(row.user_id),
  amount: signedUzs(row.amount_uzs),
  cause: row.cause as LedgerCause,
  causeId: row.cause_id,
  note: row.note,
  balanceAfter: uzs(row.balance_after_uzs),
  createdAt: date(row.created_at)
})

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
    Effect.gen(function*() {
      const sql = yield* SqlClient

      const post = Effect.fn("Ledger.post")(function*(posting: LedgerPosting) {
        const { amount, cause, causeId, userId } = posting
        const note = posting.note ?? null
        const inserted = yield* sql<EntryRow>`
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
        if (inserted[0] !== undefined) return { entry: toEntry(inserted[0]), created: true }
        // Nothing written: the cause was recorded before (perhaps by a transaction that committed while this
        // statement waited, hence a fresh statement to see it), or the balance is too low, or no account.
        const [existing] = yield* sql<EntryRow>`SELECT * FROM ledger_entries WHERE cause = ${cause} AND cause_id = ${causeId}`
        if (existing !== undefined) return { entry: toEntry(existing), created: false }
        const [account] = yield* sql<{ balance_uzs: bigint }>`SELECT balance_uzs FROM accounts WHERE user_id = ${userId}`
        if (account === undefined) return yield* Effect.die(new Error(`user ${userId} has no ledger account`))
        return yield* new InsufficientBalance({ userId, balance: uzs(account.balance_uzs), required: uzs(-amount) })
      }, orDieSql)

      const balance = Effect.fn("Ledger.balance")(function*(userId: UserId) {
        const [row] = yield* sql<{ balance_uzs: bigint }>`SELECT balance_uzs FROM accounts WHERE user_id = ${userId}`
        return uzs(row?.balance_uzs ?? 0n)
      }, orDieSql)

      const entries = Effect.fn("Ledger.entries")(function*(userId: UserId, page: PageRequest) {
        const rows = yield* sql<EntryRow & { readonly total: bigint }>`
          SELECT *, count(*) OVER () AS total FROM ledger_entries WHERE user_id = ${userId}
          ORDER BY id DESC LIMIT ${page.limit} OFFSET ${page.offset}`
        const total = rows.length > 0 || page.offset === 0
          ? totalOf(rows)
          : int((yield* sql<{ n: bigint }>`SELECT count(*) AS n FROM ledger_entries WHERE user_id = ${userId}`)[0]?.n ?? 0)
        return { items: rows.map(toEntry), total } satisfies Page<LedgerEntry>
      }, orDieSql)

      return Ledger.of({ post, balance, entries })
    })
  )
} as const
