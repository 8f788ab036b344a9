import {
  type NewOutboxEvent,
  Outbox,
  OutboxEventId,
  OutboxKind,
  OutboxPayload,
  OutboxStatus,
  UserId
} from "@resale/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, IntColumn, intAs, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** A row of `outbox_events`, decoded into the core's `OutboxEvent` (the payload is the jsonb column). */
const EventRow = Schema.Struct({
  id: intAs(OutboxEventId),
  kind: OutboxKind,
  userId: Schema.NullOr(intAs(UserId)),
  payload: OutboxPayload,
  status: OutboxStatus,
  attempts: IntColumn,
  lastError: Schema.NullOr(Schema.String),
  availableAt: DateColumn,
  createdAt: DateColumn,
  deliveredAt: Schema.NullOr(DateColumn)
}).pipe(Schema.encodeKeys({
  userId: "user_id",
  lastError: "last_error",
  availableAt: "available_at",
  createdAt: "created_at",
  deliveredAt: "delivered_at"
}))

const eventRows = rowDecoder("outbox_events", EventRow)

/** Error texts are kept short: they are for operators, and a foreign body must not fill the table. */
const MAX_ERROR = 1000

/**
 * `Outbox` on `outbox_events`. `add` joins the caller's transaction (it is just an insert on the same
 * connection); `claim` leases due events with `FOR UPDATE SKIP LOCKED` by pushing `available_at` forward,
 * so a crashed worker's events come back when the lease ends.
 */
export const PgOutbox = {
  layer: Layer.effect(
    Outbox,
    Effect.gen(function*() {
      const sql = yield* SqlClient

      const add = Effect.fn("Outbox.add")(function*(event: NewOutboxEvent, now: Date) {
        return yield* eventRows.one(yield* sql`
          INSERT INTO outbox_events (kind, user_id, payload, status, available_at, created_at)
          VALUES (${event.kind}, ${event.userId}, ${JSON.stringify(event.payload)}::jsonb, 'pending', ${now}, ${now})
          RETURNING *`)
      }, orDieSql)

      const claim = Effect.fn("Outbox.claim")(function*(now: Date, limit: number, leaseMs: number) {
        const rows = yield* eventRows.all(yield* sql`
          UPDATE outbox_events SET available_at = ${new Date(now.getTime() + leaseMs)}
          WHERE id IN (
            SELECT id FROM outbox_events
            WHERE status = 'pending' AND available_at <= ${now}
            ORDER BY available_at, id
            LIMIT ${Math.max(0, Math.trunc(limit))}
            FOR UPDATE SKIP LOCKED)
          RETURNING *`)
        return rows.toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
      }, orDieSql)

      const markDelivered = Effect.fn("Outbox.markDelivered")(function*(eventId: OutboxEventId, now: Date) {
        yield* sql`
          UPDATE outbox_events SET status = 'delivered', delivered_at = ${now}
          WHERE id = ${eventId} AND status = 'pending'`
      }, orDieSql)

      const markFailed = Effect.fn("Outbox.markFailed")(function*(
        eventId: OutboxEventId,
        error: string,
        retryAt: Date | null
      ) {
        const lastError = error.slice(0, MAX_ERROR)
        yield* retryAt === null
          ? sql`
              UPDATE outbox_events SET status = 'failed', attempts = attempts + 1, last_error = ${lastError}
              WHERE id = ${eventId} AND status = 'pending'`
          : sql`
              UPDATE outbox_events SET attempts = attempts + 1, last_error = ${lastError}, available_at = ${retryAt}
              WHERE id = ${eventId} AND status = 'pending'`
      }, orDieSql)

      return Outbox.of({ add, claim, markDelivered, markFailed })
    })
  )
} as const
