import {
  type BalanceMovement,
  LedgerCause,
  type LedgerEntry,
  LedgerEntryId,
  type Page,
  type PageRequest,
  SignedUzs,
  UserId,
  Uzs
} from "@resale/core"
import { balanceRefusal } from "@resale/core/ledger/BalanceMovement.ts"
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
 * `Ledger` on `ledger_entries` plus the running balance on `accounts`, applying core's `BalanceMovement`
 * by ONE statement: lock the account row, insert the entry only if the balance after it stays at least the
 * movement's `minBalanceAfter` (ON CONFLICT on the unique (cause, cause_id) does nothing), and add the
 * amount to the balance only if the entry was inserted. So a refused debit and a repeated cause write
 * nothing, and concurrent debits serialise on the row lock. The CHECK (balance_uzs >= 0) on accounts is
 * the last line of defence.
 */
export const PgLedger = {
  layer: Layer.effect(
    Ledger,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      // The one statement; none when it wrote nothing.
      const apply = (movement: BalanceMovement) =>
        Effect.flatMap(
          sql`
          WITH account AS (
            SELECT balance_uzs FROM accounts WHERE user_id = ${movement.userId} FOR UPDATE
          ), entry AS (
            INSERT INTO ledger_entries (user_id, amount_uzs, cause, cause_id, note, balance_after_uzs)
            SELECT ${movement.userId}, ${movement.amount}, ${movement.cause}, ${movement.causeId}, ${movement.note ?? null},
                   balance_uzs + ${movement.amount}
            FROM account WHERE balance_uzs + ${movement.amount} >= ${movement.minBalanceAfter}
            ON CONFLICT (cause, cause_id) DO NOTHING
            RETURNING *
          ), moved AS (
            UPDATE accounts SET balance_uzs = entry.balance_after_uzs
            FROM entry WHERE accounts.user_id = entry.user_id
          )
          SELECT * FROM entry`,
          entryRows.first
        )

      const post = Effect.fn("Ledger.post")(function* (movement: BalanceMovement) {
        const { cause, causeId, userId } = movement
        for (let attempt = 1; ; attempt++) {
          const inserted = yield* apply(movement)
          if (Option.isSome(inserted)) return { entry: inserted.value, created: true }
          // Nothing written: the cause was recorded before (perhaps by a transaction that committed while this
          // statement waited, hence a fresh statement to see it), or the movement's condition failed, or no account.
          const existing = yield* entryRows.first(
            yield* sql`SELECT * FROM ledger_entries WHERE cause = ${cause} AND cause_id = ${causeId}`
          )
          if (Option.isSome(existing)) return { entry: existing.value, created: false }
          const [account] = yield* balanceRows.all(
            yield* sql`SELECT balance_uzs FROM accounts WHERE user_id = ${userId}`
          )
          if (account === undefined) return yield* Effect.die(new Error(`user ${userId} has no ledger account`))
          const refused = balanceRefusal(movement, account.balance_uzs)
          if (refused !== undefined) return yield* refused
          // A credit committed between the two statements made the movement fit: apply it again, a few times.
          if (attempt === 3)
            return yield* Effect.die(new Error(`${cause}:${causeId} was refused, then fitted, 3 times`))
        }
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
