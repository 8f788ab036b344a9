import {
  type NewOutboxEvent,
  Outbox,
  type OutboxEvent,
  type OutboxEventId,
  type OutboxKind,
  type OutboxPayload,
  type OutboxStatus,
  type UserId
} from "@resale/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { date, dateOrNull, id, idOrNull, int, orDieSql } from "./SqlValues.ts"

interface EventRow {
  readonly id: bigint
  readonly kind: string
  readonly user_id: bigint | null
  readonly payload: OutboxPayload
  readonly status: string
  readonly attempts: number
  readonly last_error: string | null
  readonly available_at: Date
  readonly created_at: Date
  readonly delivered_at: Date | null
}

const toEvent = (row: EventRow): OutboxEvent => ({
  id: id<OutboxEventId>(row.id),
  kind: row.kind as OutboxKind,
  userId: idOrNull<UserId>(row.user_id),
  payload: row.payload,
  status: row.status as OutboxStatus,
  attempts: int(row.attempts),
  lastError: row.last_error,
  availableAt: date(row.available_at),
  createdAt: date(row.created_at),
  deliveredAt: dateOrNull(row.delivered_at)
})

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
        const [row] = yield* sql<EventRow>`
          INSERT INTO outbox_events (kind, user_id, payload, status, available_at, created_at)
          VALUES (${event.kind}, ${event.userId}, ${JSON.stringify(event.payload)}::jsonb, 'pending', ${now}, ${now})
          RETURNING *`
        if (row === undefined) return yield* Effect.die(new Error("outbox insert returned no row"))
        return toEvent(row)
      }, orDieSql)

      const claim = Effect.fn("Outbox.claim")(function*(now: Date, limit: number, leaseMs: number) {
        const rows = yield* sql<EventRow>`
          UPDATE outbox_events SET available_at = ${new Date(now.getTime() + leaseMs)}
          WHERE id IN (
            SELECT id FROM outbox_events
            WHERE status = 'pending' AND available_at <= ${now}
            ORDER BY available_at, id
            LIMIT ${Math.max(0, Math.trunc(limit))}
            FOR UPDATE SKIP LOCKED)
          RETURNING *`
        return rows.map(toEvent).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
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
