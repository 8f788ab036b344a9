import type { TelegramIdentity, User, UserId } from "@resale/core"
import { Users } from "@resale/core/ports"
import { Effect } from "effect"
import type * as Scope from "effect/Scope"
import { SqlClient } from "effect/sql/SqlClient"
import type { StorePorts } from "../../src/PgStore.ts"

/** What every contract test may use: all ports and the raw connection (to look under the ports). */
export type StoreServices = StorePorts | SqlClient

/**
 * Registers one contract test. Each runner decides how a test gets a fresh store: a new database per
 * test on PostgreSQL, emptied tables on the one embedded PGlite of a file (it takes seconds to start).
 */
export type StoreTest = (name: string, body: Effect.Effect<unknown, unknown, StoreServices | Scope.Scope>) => void

/** Empties every table (identities restart), so each test starts from a fresh, migrated database. */
export const reset: Effect.Effect<void, never, SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    TRUNCATE users, accounts, ledger_entries, topups, incoming_payments, orders, tickets, ticket_messages,
      prices, idempotency_keys, sessions, bot_updates, push_subscriptions, outbox_events, info_lookups, receipts,
      direct_purchases, marketplace_sessions, marketplace_purchases
    RESTART IDENTITY CASCADE`
}).pipe(Effect.orDie)

/** Fixed instants: the ports take `now` from their callers, so tests choose it. */
export const t0 = new Date("2026-01-01T10:00:00.000Z")
export const at = (ms: number): Date => new Date(t0.getTime() + ms)
export const minutes = (n: number): number => n * 60_000

export const identity = (telegramId: number, username: string | null = `user${telegramId}`): TelegramIdentity => ({
  telegramId,
  username,
  firstName: "Test",
  photoUrl: null
})

/** A new user (with its zero-balance account) through the Users port. */
export const newUser = (telegramId: number, username?: string | null): Effect.Effect<User, never, Users> =>
  Users.use((users) => users.upsertTelegram(identity(telegramId, username), t0))

/** The balance on the account row and the sum of the user's entries, read straight from the tables. */
export const booked = (
  userId: UserId
): Effect.Effect<{ readonly balance: number; readonly sum: number; readonly entries: number }, never, SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const [row] = yield* sql<{ balance: bigint; sum: bigint; entries: bigint }>`
      SELECT a.balance_uzs AS balance,
             (SELECT coalesce(sum(amount_uzs), 0) FROM ledger_entries e WHERE e.user_id = a.user_id)::bigint AS sum,
             (SELECT count(*) FROM ledger_entries e WHERE e.user_id = a.user_id) AS entries
      FROM accounts a WHERE a.user_id = ${userId}`
    return { balance: Number(row?.balance ?? -1n), sum: Number(row?.sum ?? -1n), entries: Number(row?.entries ?? -1n) }
  }).pipe(Effect.orDie)
