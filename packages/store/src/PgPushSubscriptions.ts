import { type PushSubscription, PushSubscriptions, type UserId } from "@resale/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { date, id, orDieSql } from "./SqlValues.ts"

interface SubscriptionRow {
  readonly endpoint: string
  readonly user_id: bigint
  readonly p256dh: string
  readonly auth: string
  readonly created_at: Date
}

const toSubscription = (row: SubscriptionRow): PushSubscription => ({
  userId: id<UserId>(row.user_id),
  endpoint: row.endpoint,
  p256dh: row.p256dh,
  auth: row.auth,
  createdAt: date(row.created_at)
})

/** `PushSubscriptions` on `push_subscriptions`; the endpoint is the primary key and never changes owner. */
export const PgPushSubscriptions = {
  layer: Layer.effect(
    PushSubscriptions,
    Effect.gen(function*() {
      const sql = yield* SqlClient

      const upsert = Effect.fn("PushSubscriptions.upsert")(function*(subscription: PushSubscription, keep: number) {
        // The conditional update leaves an endpoint owned by someone else untouched: no row comes back.
        return yield* sql.withTransaction(Effect.gen(function*() {
          const stored = yield* sql`
            INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth, created_at)
            VALUES (${subscription.endpoint}, ${subscription.userId}, ${subscription.p256dh}, ${subscription.auth},
                    ${subscription.createdAt})
            ON CONFLICT (endpoint) DO UPDATE SET
              p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, created_at = EXCLUDED.created_at
            WHERE push_subscriptions.user_id = EXCLUDED.user_id
            RETURNING endpoint`
          if (stored.length === 0) return "taken" as const
          yield* sql`
            DELETE FROM push_subscriptions WHERE user_id = ${subscription.userId} AND endpoint NOT IN (
              SELECT endpoint FROM push_subscriptions WHERE user_id = ${subscription.userId}
              ORDER BY created_at DESC, endpoint DESC LIMIT ${keep})`
          return "stored" as const
        }))
      }, orDieSql)

      const listByUser = Effect.fn("PushSubscriptions.listByUser")(function*(userId: UserId) {
        const rows = yield* sql<SubscriptionRow>`
          SELECT * FROM push_subscriptions WHERE user_id = ${userId} ORDER BY created_at, endpoint`
        return rows.map(toSubscription)
      }, orDieSql)

      const remove = Effect.fn("PushSubscriptions.remove")(function*(endpoint: string) {
        yield* sql`DELETE FROM push_subscriptions WHERE endpoint = ${endpoint}`
      }, orDieSql)

      return PushSubscriptions.of({ upsert, listByUser, remove })
    })
  )
} as const
