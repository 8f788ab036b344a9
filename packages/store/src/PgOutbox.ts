import {
  type NewOutboxEvent,
  type OutboxEvent,
  OutboxEventId,
  OutboxKind,
  OutboxPayload,
  OutboxStatus,
  UserId
} from "@resale/core"
import { Outbox } from "@resale/core/ports"
import { newWebhookEventId } from "@resale/core/webhooks/WebhookEventId.ts"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, IntColumn, intAs, RowDecodeError, rowDecoder } from "./Rows.ts"
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
  deliveredAt: Schema.NullOr(DateColumn),
  webhookId: Schema.NullOr(Schema.String)
}).pipe(
  Schema.encodeKeys({
    userId: "user_id",
    lastError: "last_error",
    availableAt: "available_at",
    createdAt: "created_at",
    deliveredAt: "delivered_at",
    webhookId: "webhook_id"
  })
)

const eventRows = rowDecoder("outbox_events", EventRow)
const decodeEvent = Schema.decodeUnknownEffect(EventRow)
/** What a claim can still say about a row it cannot read: which event, of what kind. */
const decodeKey = Schema.decodeUnknownEffect(Schema.Struct({ id: intAs(OutboxEventId), kind: Schema.String }))

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
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const add = Effect.fn("Outbox.add")(function* (event: NewOutboxEvent, now: Date) {
        return yield* eventRows.one(
          yield* sql`
          INSERT INTO outbox_events (kind, user_id, payload, status, available_at, created_at, webhook_id)
          VALUES (${event.kind}, ${event.userId}, ${JSON.stringify(event.payload)}::jsonb, 'pending', ${now}, ${now},
            ${yield* newWebhookEventId})
          RETURNING *`
        )
      }, orDieSql)

      /**
       * An event this version cannot read (a kind, or a payload, written by a newer version during a
       * rolling deploy) is not delivered here and not failed: it stays pending for a version that
       * reads it, back after the lease like any claimed event, with a warning naming it. The others
       * are delivered: one such event never stops every notification.
       */
      const unreadable = (row: unknown, error: Schema.SchemaError) =>
        Effect.gen(function* () {
          const key = yield* decodeKey(row).pipe(
            Effect.catch(() => Effect.die(new RowDecodeError({ table: "outbox_events", message: error.message })))
          )
          const known = Schema.is(OutboxKind)(key.kind)
          yield* Effect.logWarning(
            `outbox event ${key.id} of kind "${key.kind}" cannot be read by this version${known ? "" : " (unknown kind)"}: left pending for a version that reads it`
          ).pipe(Effect.annotateLogs({ eventId: key.id, kind: key.kind }))
          yield* sql`
            UPDATE outbox_events SET last_error = ${`not readable by this version: ${error.message}`.slice(0, MAX_ERROR)}
            WHERE id = ${key.id} AND status = 'pending'`
        })

      const claim = Effect.fn("Outbox.claim")(function* (now: Date, limit: number, leaseMs: number) {
        const rows = yield* sql`
          UPDATE outbox_events SET available_at = ${new Date(now.getTime() + leaseMs)}
          WHERE id IN (
            SELECT id FROM outbox_events
            WHERE status = 'pending' AND available_at <= ${now}
            ORDER BY available_at, id
            LIMIT ${Math.max(0, Math.trunc(limit))}
            FOR UPDATE SKIP LOCKED)
          RETURNING *`
        const events: Array<OutboxEvent> = []
        for (const row of rows) {
          const decoded = yield* Effect.result(decodeEvent(row))
          if (decoded._tag === "Success") events.push(decoded.success)
          else yield* unreadable(row, decoded.failure)
        }
        return events.toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
      }, orDieSql)

      const markDelivered = Effect.fn("Outbox.markDelivered")(function* (eventId: OutboxEventId, now: Date) {
        yield* sql`
          UPDATE outbox_events SET status = 'delivered', delivered_at = ${now}
          WHERE id = ${eventId} AND status = 'pending'`
      }, orDieSql)

      const markFailed = Effect.fn("Outbox.markFailed")(function* (
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
