import { type NewWebhookDelivery, UserId, WebhookEventType } from "@resale/core"
import { WebhookEndpoints } from "@resale/core/ports/WebhookEndpoints.ts"
import { Effect, Layer, Schema, SchemaGetter, SchemaTransformation } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, IntColumn, intAs, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** Event types are short fixed names, stored comma-separated; each must be one the core knows. */
const EventTypes = Schema.String.pipe(
  Schema.decodeTo(Schema.Array(Schema.String), {
    decode: SchemaGetter.transform((text: string) => text.split(",")),
    encode: SchemaGetter.transform((names: ReadonlyArray<string>) => names.join(","))
  }),
  // Each name is then checked against the core's literals (the target schema decodes it).
  Schema.decodeTo(Schema.Array(WebhookEventType), SchemaTransformation.passthrough({ strict: false }))
)

/** A row of `webhook_endpoints`, decoded into the core's `WebhookEndpoint`. */
const endpointRows = rowDecoder(
  "webhook_endpoints",
  Schema.Struct({
    id: IntColumn,
    userId: intAs(UserId),
    url: Schema.String,
    secret: Schema.String,
    events: EventTypes,
    createdAt: DateColumn
  }).pipe(Schema.encodeKeys({ userId: "user_id", createdAt: "created_at" }))
)

/** A row of `webhook_deliveries`, decoded into the core's `WebhookDelivery`. */
const deliveryRows = rowDecoder(
  "webhook_deliveries",
  Schema.Struct({
    id: IntColumn,
    endpointId: IntColumn,
    eventId: Schema.String,
    eventType: Schema.String,
    body: Schema.String,
    status: Schema.Literals(["pending", "delivered", "failed"]),
    attempts: IntColumn,
    lastStatusCode: Schema.NullOr(IntColumn),
    lastError: Schema.NullOr(Schema.String),
    nextAttemptAt: Schema.NullOr(DateColumn),
    createdAt: DateColumn,
    deliveredAt: Schema.NullOr(DateColumn)
  }).pipe(
    Schema.encodeKeys({
      endpointId: "endpoint_id",
      eventId: "event_id",
      eventType: "event_type",
      lastStatusCode: "last_status_code",
      lastError: "last_error",
      nextAttemptAt: "next_attempt_at",
      createdAt: "created_at",
      deliveredAt: "delivered_at"
    })
  )
)

const countRows = rowDecoder("webhook_endpoints", Schema.Struct({ n: IntColumn }))
const testRows = rowDecoder("webhook_deliveries", Schema.Struct({ n: IntColumn, next: Schema.NullOr(DateColumn) }))

/** `WebhookEndpoints` on `webhook_endpoints` and `webhook_deliveries`. */
export const PgWebhookEndpoints = {
  layer: Layer.effect(
    WebhookEndpoints,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const create = Effect.fn("WebhookEndpoints.create")(function* (
        input: {
          readonly userId: UserId
          readonly url: string
          readonly secret: string
          readonly events: ReadonlyArray<WebhookEventType>
        },
        max: number,
        now: Date
      ) {
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            // The user's row lock serialises concurrent registrations, so the cap holds.
            yield* sql`SELECT id FROM users WHERE id = ${input.userId} FOR UPDATE`
            const count = yield* countRows.one(
              yield* sql`SELECT count(*) AS n FROM webhook_endpoints WHERE user_id = ${input.userId}`
            )
            if (count.n >= max) return "full" as const
            return yield* endpointRows.one(
              yield* sql`
            INSERT INTO webhook_endpoints (user_id, url, secret, events, created_at)
            VALUES (${input.userId}, ${input.url}, ${input.secret}, ${input.events.join(",")}, ${now})
            RETURNING *`
            )
          })
        )
      }, orDieSql)

      const listByUser = Effect.fn("WebhookEndpoints.listByUser")(function* (userId: UserId) {
        return yield* endpointRows.all(
          yield* sql`SELECT * FROM webhook_endpoints WHERE user_id = ${userId} ORDER BY id`
        )
      }, orDieSql)

      const subscribed = Effect.fn("WebhookEndpoints.subscribed")(function* (userId: UserId, type: WebhookEventType) {
        return (yield* listByUser(userId)).filter((e) => e.events.includes(type))
      })

      const find = Effect.fn("WebhookEndpoints.find")(function* (userId: UserId, endpointId: number) {
        return yield* endpointRows.first(
          yield* sql`SELECT * FROM webhook_endpoints WHERE id = ${endpointId} AND user_id = ${userId}`
        )
      }, orDieSql)

      const remove = Effect.fn("WebhookEndpoints.remove")(function* (userId: UserId, endpointId: number) {
        const rows =
          yield* sql`DELETE FROM webhook_endpoints WHERE id = ${endpointId} AND user_id = ${userId} RETURNING id`
        return rows.length > 0
      }, orDieSql)

      const setSecret = Effect.fn("WebhookEndpoints.setSecret")(function* (
        userId: UserId,
        endpointId: number,
        secret: string
      ) {
        return yield* endpointRows.first(
          yield* sql`
          UPDATE webhook_endpoints SET secret = ${secret} WHERE id = ${endpointId} AND user_id = ${userId} RETURNING *`
        )
      }, orDieSql)

      const removeAllByUser = Effect.fn("WebhookEndpoints.removeAllByUser")(function* (userId: UserId) {
        return (yield* sql`DELETE FROM webhook_endpoints WHERE user_id = ${userId} RETURNING id`).length
      }, orDieSql)

      // The endpoint's row lock serialises enqueues of one endpoint, so a count read after it holds.
      const lockEndpoint = (endpointId: number) =>
        sql`SELECT id FROM webhook_endpoints WHERE id = ${endpointId} FOR UPDATE`

      const enqueue = Effect.fn("WebhookEndpoints.enqueue")(function* (
        deliveries: ReadonlyArray<NewWebhookDelivery>,
        cap: { readonly maxPending: number; readonly overflowError: string },
        now: Date
      ) {
        for (const d of deliveries) {
          yield* sql.withTransaction(
            Effect.gen(function* () {
              yield* lockEndpoint(d.endpointId)
              // Past the cap the event is logged as failed, never sent: the backlog stays bounded.
              yield* sql`
                WITH waiting AS (
                  SELECT count(*) < ${cap.maxPending} AS room FROM webhook_deliveries
                  WHERE endpoint_id = ${d.endpointId} AND status = 'pending')
                INSERT INTO webhook_deliveries
                  (endpoint_id, event_id, event_type, body, status, next_attempt_at, last_error, created_at)
                SELECT ${d.endpointId}, ${d.eventId}, ${d.eventType}, ${d.body},
                  CASE WHEN room THEN 'pending' ELSE 'failed' END,
                  CASE WHEN room THEN ${now}::timestamptz END,
                  CASE WHEN room THEN NULL ELSE ${cap.overflowError} END, ${now}
                FROM waiting
                ON CONFLICT (endpoint_id, event_id) DO NOTHING`
            })
          )
        }
      }, orDieSql)

      const enqueueTest = Effect.fn("WebhookEndpoints.enqueueTest")(function* (
        d: NewWebhookDelivery,
        maxTests: number,
        now: Date
      ) {
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* lockEndpoint(d.endpointId)
            const waiting = yield* testRows.one(
              yield* sql`
              SELECT count(*) AS n, min(next_attempt_at) AS next FROM webhook_deliveries
              WHERE endpoint_id = ${d.endpointId} AND status = 'pending' AND event_type = ${d.eventType}`
            )
            if (waiting.n >= maxTests) return { queued: false as const, nextAttemptAt: waiting.next }
            yield* sql`
              INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, body, status, next_attempt_at, created_at)
              VALUES (${d.endpointId}, ${d.eventId}, ${d.eventType}, ${d.body}, 'pending', ${now}, ${now})
              ON CONFLICT (endpoint_id, event_id) DO NOTHING`
            return { queued: true as const }
          })
        )
      }, orDieSql)

      const claimDue = Effect.fn("WebhookEndpoints.claimDue")(function* (now: Date, limit: number, leaseMs: number) {
        const lease = new Date(now.getTime() + leaseMs)
        // Endpoints with something due and nothing in flight, served longest ago first; each gives its oldest due delivery.
        const rows = yield* deliveryRows.all(
          yield* sql`
          WITH free AS (
            SELECT id FROM webhook_endpoints
            WHERE (lease_until IS NULL OR lease_until <= ${now})
              AND id IN (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ${now})
            ORDER BY lease_until NULLS FIRST, id LIMIT ${limit} FOR UPDATE SKIP LOCKED),
          picked AS (
            SELECT d.id FROM free CROSS JOIN LATERAL (
              SELECT id FROM webhook_deliveries
              WHERE endpoint_id = free.id AND status = 'pending' AND next_attempt_at <= ${now}
              ORDER BY next_attempt_at, id LIMIT 1) d),
          leased AS (
            UPDATE webhook_endpoints SET lease_until = ${lease} FROM free WHERE webhook_endpoints.id = free.id)
          UPDATE webhook_deliveries SET next_attempt_at = ${lease}
          FROM picked WHERE webhook_deliveries.id = picked.id
          RETURNING webhook_deliveries.*`
        )
        if (rows.length === 0) return []
        const deliveries = rows.toSorted((a, b) => a.id - b.id)
        const endpoints = yield* endpointRows.all(
          yield* sql`
          SELECT * FROM webhook_endpoints WHERE id IN ${sql.in(deliveries.map((d) => d.endpointId))}`
        )
        const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]))
        return deliveries.flatMap((delivery) => {
          const endpoint = byId.get(delivery.endpointId)
          return endpoint === undefined ? [] : [{ delivery, endpoint }]
        })
      }, orDieSql)

      const recordAttempt = Effect.fn("WebhookEndpoints.recordAttempt")(function* (
        deliveryId: number,
        outcome: {
          readonly status: "delivered" | "pending" | "failed"
          readonly statusCode: number | null
          readonly error: string | null
          readonly nextAttemptAt: Date | null
        },
        now: Date
      ) {
        // The endpoint is freed only by the attempt that still held it (a late record frees nothing).
        yield* sql`
          WITH recorded AS (
            UPDATE webhook_deliveries SET
              status = ${outcome.status}, attempts = attempts + 1, last_status_code = ${outcome.statusCode},
              last_error = ${outcome.error}, next_attempt_at = ${outcome.status === "pending" ? outcome.nextAttemptAt : null},
              delivered_at = ${outcome.status === "delivered" ? now : null}
            WHERE id = ${deliveryId} AND status = 'pending'
            RETURNING endpoint_id)
          UPDATE webhook_endpoints SET lease_until = ${now} FROM recorded WHERE webhook_endpoints.id = recorded.endpoint_id`
      }, orDieSql)

      const deliveries = Effect.fn("WebhookEndpoints.deliveries")(function* (endpointId: number, limit: number) {
        return yield* deliveryRows.all(
          yield* sql`
          SELECT * FROM webhook_deliveries WHERE endpoint_id = ${endpointId} ORDER BY id DESC LIMIT ${limit}`
        )
      }, orDieSql)

      return WebhookEndpoints.of({
        create,
        listByUser,
        subscribed,
        find,
        remove,
        removeAllByUser,
        setSecret,
        enqueue,
        enqueueTest,
        claimDue,
        recordAttempt,
        deliveries
      })
    })
  )
} as const
