import { AccountActivity, type CappedAction, type UserId } from "@resale/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { date, int, orDieSql } from "./SqlValues.ts"

/**
 * `AccountActivity` on `account_activity` (migration 0013). `lock` is a transaction-scoped advisory
 * lock keyed by the account, so two requests of one account check and write their caps one after
 * the other while other accounts never wait; outside a transaction it would end with its statement.
 */
export const PgAccountActivity = {
  layer: Layer.effect(
    AccountActivity,
    Effect.gen(function*() {
      const sql = yield* SqlClient

      const lock = Effect.fn("AccountActivity.lock")(function*(userId: UserId) {
        yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`account-caps:${userId}`}, 0))`
      }, orDieSql)

      const countSince = Effect.fn("AccountActivity.countSince")(function*(userId: UserId, action: CappedAction, since: Date) {
        const [row] = yield* sql<{ n: bigint; oldest: Date | null }>`
          SELECT count(*) AS n, min(at) AS oldest FROM account_activity
          WHERE user_id = ${userId} AND action = ${action} AND at > ${since}`
        return { count: int(row?.n ?? 0n), oldest: row?.oldest == null ? null : date(row.oldest) }
      }, orDieSql)

      const record = Effect.fn("AccountActivity.record")(function*(userId: UserId, action: CappedAction, at: Date) {
        yield* sql`INSERT INTO account_activity (user_id, action, at) VALUES (${userId}, ${action}, ${at})`
      }, orDieSql)

      return AccountActivity.of({ lock, countSince, record })
    })
  )
} as const
