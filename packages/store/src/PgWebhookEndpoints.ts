import type { NewWebhookDelivery, UserId, WebhookDelivery, WebhookEndpoint, WebhookEventType } from "@resale/core"
import { WebhookEndpoints } from "@resale/core/webhooks/WebhookEndpoints.ts"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { date, dateOrNull, id, int, intOrNull, orDieSql } from "./SqlValues.ts"

interface EndpointRow {
  readonly id: bigint
  readonly user_id: bigint
  readonly url: string
  readonly secret: string
  readonly events: string
  readonly created_at: Date
}

interface DeliveryRow {
  readonly id: bigint
  readonly endpoint_id: bigint
  readonly event_id: string
  readonly event_type: string
  readonly body: string
  readonly status: WebhookDelivery["status"]
  readonly attempts: number
  readonly last_status_code: number | null
  readonly last_error: string | null
  readonly next_attempt_at: Date | null
  readonly created_at: Date
  readonly delivered_at: Date | null
}

// Event types are short fixed names: stored comma-separated.
const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: int(row.id),
  userId: id<UserId>(row.user_id),
  url: row.url,
  secret: row.secret,
  events: row.events.split(",") as ReadonlyArray<WebhookEventType>,
  createdAt: date(row.created_at)
})

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: int(row.id),
  endpointId: int(row.endpoint_id),
  eventId: row.event_id,
  eventType: row.event_type,
  body: row.body,
  status: row.status,
  attempts: int(row.attempts),
  lastStatusCode: intOrNull(row.last_status_code),
  lastError: row.last_error,
  nextAttemptAt: dateOrNull(row.next_attempt_at),
  createdAt: date(row.created_at),
  deliveredAt: dateOrNull(row.delivered_at)
})

/** `WebhookEndpoints` on `webhook_endpoints` and `webhook_deliveries`. */
export const PgWebhookEndpoints = {
  layer: Layer.effect(
    WebhookEndpoints,
    Effect.gen(function*() {
      const sql = yield* SqlClient

      const create = Effect.fn("WebhookEndpoints.create")(function*(
        input: { readonly userId: UserId; readonly url: string; readonly secret: string; readonly events: ReadonlyArray<WebhookEventType> },
        max: number,
        now: Date
      ) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          // The user's row lock serialises concurrent registrations, so the cap holds.
          yield* sql`SELECT id FROM users WHERE id = ${input.userId} FOR UPDATE`
          const [count] = yield* sql<{ readonly n: bigint }>`SELECT count(*) AS n FROM webhook_endpoints WHERE user_id = ${input.userId}`
          if (int(count!.n) >= max) return "full" as const
          const [row] = yield* sql<EndpointRow>`
            INSERT INTO webhook_endpoints (user_id, url, secret, events, created_at)
            VALUES (${input.userId}, ${input.url}, ${input.secret}, ${input.events.join(",")}, ${now})
            RETURNING *`
          return toEndpoint(row!)
        }))
      }, orDieSql)

      const listByUser = Effect.fn("WebhookEndpoints.listByUser")(function*(userId: UserId) {
        const rows = yield* sql<EndpointRow>`SELECT * FROM webhook_endpoints WHERE user_id = ${userId} ORDER BY id`
        return rows.map(toEndpoint)
      }, orDieSql)

      const subscribed = Effect.fn("WebhookEndpoints.subscribed")(function*(userId: UserId, type: WebhookEventType) {
        return (yield* listByUser(userId)).filter((e) => e.events.includes(type))
      })

      const find = Effect.fn("WebhookEndpoints.find")(function*(userId: UserId, endpointId: number) {
        const rows = yield* sql<EndpointRow>`SELECT * FROM webhook_endpoints WHERE id = ${endpointId} AND user_id = ${userId}`
        return Option.map(Option.fromNullishOr(rows[0]), toEndpoint)
      }, orDieSql)

      const remove = Effect.fn("WebhookEndpoints.remove")(function*(userId: UserId, endpointId: number) {
        const rows = yield* sql`DELETE FROM webhook_endpoints WHERE id = ${endpointId} AND user_id = ${userId} RETURNING id`
        return rows.length > 0
      }, orDieSql)

      const setSecret = Effect.fn("WebhookEndpoints.setSecret")(function*(userId: UserId, endpointId: number, secret: string) {
        const rows = yield* sql<EndpointRow>`
          UPDATE webhook_endpoints SET secret = ${secret} WHERE id = ${endpointId} AND user_id = ${userId} RETURNING *`
        return Option.map(Option.fromNullishOr(rows[0]), toEndpoint)
      }, orDieSql)

      const enqueue = Effect.fn("WebhookEndpoints.enqueue")(function*(deliveries: ReadonlyArray<NewWebhookDelivery>, now: Date) {
        for (const d of deliveries) {
          yield* sql`
            INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, body, status, next_attempt_at, created_at)
            VALUES (${d.endpointId}, ${d.eventId}, ${d.eventType}, ${d.body}, 'pending', ${now}, ${now})
            ON CONFLICT (endpoint_id, event_id) DO NOTHING`
        }
      }, orDieSql)

      const claimDue = Effect.fn("WebhookEndpoints.claimDue")(function*(now: Date, limit: number, leaseMs: number) {
        const lease = new Date(now.getTime() + leaseMs)
        const rows = yield* sql<DeliveryRow>`
          UPDATE webhook_deliveries SET next_attempt_at = ${lease}
          WHERE id IN (
            SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ${now}
            ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING *`
        if (rows.length === 0) return []
        const deliveries = rows.map(toDelivery).sort((a, b) => a.id - b.id)
        const endpoints = yield* sql<EndpointRow>`
          SELECT * FROM webhook_endpoints WHERE id IN ${sql.in(deliveries.map((d) => d.endpointId))}`
        const byId = new Map(endpoints.map((row) => [int(row.id), toEndpoint(row)]))
        return deliveries.flatMap((delivery) => {
          const endpoint = byId.get(delivery.endpointId)
          return endpoint === undefined ? [] : [{ delivery, endpoint }]
        })
      }, orDieSql)

      const recordAttempt = Effect.fn("WebhookEndpoints.recordAttempt")(function*(
        deliveryId: number,
        outcome: {
          readonly status: "delivered" | "pending" | "failed"
          readonly statusCode: number | null
          readonly error: string | null
          readonly nextAttemptAt: Date | null
        },
        now: Date
      ) {
        yield* sql`
          UPDATE webhook_deliveries SET
            status = ${outcome.status}, attempts = attempts + 1, last_status_code = ${outcome.statusCode},
            last_error = ${outcome.error}, next_attempt_at = ${outcome.status === "pending" ? outcome.nextAttemptAt : null},
            delivered_at = ${outcome.status === "delivered" ? now : null}
          WHERE id = ${deliveryId} AND status = 'pending'`
      }, orDieSql)

      const deliveries = Effect.fn("WebhookEndpoints.deliveries")(function*(endpointId: number, limit: number) {
        const rows = yield* sql<DeliveryRow>`
          SELECT * FROM webhook_deliveries WHERE endpoint_id = ${endpointId} ORDER BY id DESC LIMIT ${limit}`
        return rows.map(toDelivery)
      }, orDieSql)

      return WebhookEndpoints.of({
        create, listByUser, subscribed, find, remove, setSecret, enqueue, claimDue, recordAttempt, deliveries
      })
    })
  )
} as const
