import { type PushSubscription, UserId } from "@resale/core"
import { PushSubscriptions } from "@resale/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, intAs, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** A row of `push_subscriptions`, decoded into the core's `PushSubscription`. */
const subscriptionRows = rowDecoder(
  "push_subscriptions",
  Schema.Struct({
    userId: intAs(UserId),
    endpoint: Schema.String,
    p256dh: Schema.String,
    auth: Schema.String,
    createdAt: DateColumn
  }).pipe(Schema.encodeKeys({ userId: "user_id", createdAt: "created_at" }))
)

/** `PushSubscriptions` on `push_subscriptions`; the endpoint is the primary key and never changes owner. */
export const PgPushSubscriptions = {
  layer: Layer.effect(
    PushSubscriptions,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const upsert = Effect.fn("PushSubscriptions.upsert")(function* (subscription: PushSubscription, keep: number) {
        // The conditional update leaves an endpoint owned by someone else untouched: no row comes back.
        return yield* sql.withTransaction(
          Effect.gen(function* () {
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
          })
        )
      }, orDieSql)

      const listByUser = Effect.fn("PushSubscriptions.listByUser")(function* (userId: UserId) {
        return yield* subscriptionRows.all(
          yield* sql`
          SELECT * FROM push_subscriptions WHERE user_id = ${userId} ORDER BY created_at, endpoint`
        )
      }, orDieSql)

      const remove = Effect.fn("PushSubscriptions.remove")(function* (endpoint: string) {
        yield* sql`DELETE FROM push_subscriptions WHERE endpoint = ${endpoint}`
      }, orDieSql)

      return PushSubscriptions.of({ upsert, listByUser, remove })
    })
  )
} as const
