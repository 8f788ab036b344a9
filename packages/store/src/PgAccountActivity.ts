import type { UserId } from "@resale/core"
import { AccountActivity, type CappedAction } from "@resale/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, IntColumn, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** How many capped actions since an instant, and the oldest of them (null when none). */
const activityRows = rowDecoder("account_activity", Schema.Struct({ n: IntColumn, oldest: Schema.NullOr(DateColumn) }))

/**
 * `AccountActivity` on `account_activity` (migration 0013). `lock` is a transaction-scoped advisory
 * lock keyed by the account, so two requests of one account check and write their caps one after
 * the other while other accounts never wait; outside a transaction it would end with its statement.
 */
export const PgAccountActivity = {
  layer: Layer.effect(
    AccountActivity,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const lock = Effect.fn("AccountActivity.lock")(function* (userId: UserId) {
        yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`account-caps:${userId}`}, 0))`
      }, orDieSql)

      const countSince = Effect.fn("AccountActivity.countSince")(function* (
        userId: UserId,
        action: CappedAction,
        since: Date
      ) {
        const [row] = yield* activityRows.all(
          yield* sql`
          SELECT count(*) AS n, min(at) AS oldest FROM account_activity
          WHERE user_id = ${userId} AND action = ${action} AND at > ${since}`
        )
        return { count: row?.n ?? 0, oldest: row?.oldest ?? null }
      }, orDieSql)

      const record = Effect.fn("AccountActivity.record")(function* (userId: UserId, action: CappedAction, at: Date) {
        yield* sql`INSERT INTO account_activity (user_id, action, at) VALUES (${userId}, ${action}, ${at})`
      }, orDieSql)

      return AccountActivity.of({ lock, countSince, record })
    })
  )
} as const
