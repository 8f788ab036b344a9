import {
  MessageAuthor,
  MessageId,
  type Page,
  type PageRequest,
  type Ticket,
  TicketId,
  type TicketMessage,
  TicketNotFound,
  TicketStatus,
  UserId
} from "@resale/core"
import { Tickets } from "@resale/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, intAs, pageTotal, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** A row of `tickets`, decoded into the core's `Ticket`. */
const TicketRow = Schema.Struct({
  id: intAs(TicketId),
  userId: intAs(UserId),
  subject: Schema.String,
  status: TicketStatus,
  lastAuthor: MessageAuthor,
  createdAt: DateColumn,
  updatedAt: DateColumn
}).pipe(
  Schema.encodeKeys({ userId: "user_id", lastAuthor: "last_author", createdAt: "created_at", updatedAt: "updated_at" })
)

/** A row of `ticket_messages`, decoded into the core's `TicketMessage`. */
const MessageRow = Schema.Struct({
  id: intAs(MessageId),
  ticketId: intAs(TicketId),
  author: MessageAuthor,
  body: Schema.String,
  createdAt: DateColumn
}).pipe(Schema.encodeKeys({ ticketId: "ticket_id", createdAt: "created_at" }))

const ticketRows = rowDecoder("tickets", TicketRow)
const messageRows = rowDecoder("ticket_messages", MessageRow)
/** The first message's columns (`m_*`) next to its new ticket's, from one statement. */
const firstMessageRows = rowDecoder("ticket_messages", Schema.Struct({ m_id: intAs(MessageId), m_body: Schema.String }))

/** Most a poll returns at once; the client asks again with the last id it got. */
const POLL_LIMIT = 500

/**
 * `Tickets` on `tickets` and `ticket_messages`. A message is inserted in the same statement that updates
 * (and so locks) its ticket row, and takes its id only after that lock: messages of one ticket commit in
 * id order, so a poller that saw id n never later finds a new message below n.
 */
export const PgTickets = {
  layer: Layer.effect(
    Tickets,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const create = Effect.fn("Tickets.create")(function* (input: {
        readonly userId: UserId
        readonly subject: string
        readonly body: string
        readonly now: Date
      }) {
        const { body, now, subject, userId } = input
        const rows = yield* sql`
          WITH t AS (
            INSERT INTO tickets (user_id, subject, status, last_author, created_at, updated_at)
            VALUES (${userId}, ${subject}, 'open', 'user', ${now}, ${now})
            RETURNING *
          ), m AS (
            INSERT INTO ticket_messages (ticket_id, author, body, created_at)
            SELECT id, 'user', ${body}, ${now} FROM t
            RETURNING id, body
          )
          SELECT t.*, m.id AS m_id, m.body AS m_body FROM t, m`
        const ticket = yield* ticketRows.one(rows)
        const first = yield* firstMessageRows.one(rows)
        const message: TicketMessage = {
          id: first.m_id,
          ticketId: ticket.id,
          author: "user",
          body: first.m_body,
          createdAt: ticket.createdAt
        }
        return { ticket, message }
      }, orDieSql)

      const find = Effect.fn("Tickets.find")(function* (ticketId: TicketId) {
        return yield* ticketRows.first(yield* sql`SELECT * FROM tickets WHERE id = ${ticketId}`)
      }, orDieSql)

      const list = Effect.fn("Tickets.list")(function* (
        filter: { readonly userId?: UserId; readonly status?: TicketStatus } & PageRequest
      ) {
        const where = sql.and([
          ...(filter.userId === undefined ? [] : [sql`user_id = ${filter.userId}`]),
          ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
        ])
        const rows = yield* sql`
          SELECT *, count(*) OVER () AS total FROM tickets WHERE ${where}
          ORDER BY updated_at DESC, id DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`
        const total = yield* pageTotal(rows, filter.offset, sql`SELECT count(*) AS total FROM tickets WHERE ${where}`)
        return { items: yield* ticketRows.all(rows), total } satisfies Page<Ticket>
      }, orDieSql)

      const addMessage = Effect.fn("Tickets.addMessage")(function* (input: {
        readonly ticketId: TicketId
        readonly author: MessageAuthor
        readonly body: string
        readonly now: Date
      }) {
        const { author, body, now, ticketId } = input
        const [row] = yield* messageRows.all(
          yield* sql`
          WITH t AS (
            UPDATE tickets SET last_author = ${author}, updated_at = ${now}
            WHERE id = ${ticketId}
            RETURNING id
          )
          INSERT INTO ticket_messages (ticket_id, author, body, created_at)
          SELECT id, ${author}, ${body}, ${now} FROM t
          RETURNING *`
        )
        if (row === undefined) return yield* new TicketNotFound({ ticketId })
        return row
      }, orDieSql)

      const messagesAfter = Effect.fn("Tickets.messagesAfter")(function* (ticketId: TicketId, after: number) {
        return yield* messageRows.all(
          yield* sql`
          SELECT * FROM ticket_messages WHERE ticket_id = ${ticketId} AND id > ${Math.max(0, Math.trunc(after))}
          ORDER BY id LIMIT ${POLL_LIMIT}`
        )
      }, orDieSql)

      const setStatus = Effect.fn("Tickets.setStatus")(function* (ticketId: TicketId, status: TicketStatus, now: Date) {
        const [row] = yield* ticketRows.all(
          yield* sql`
          UPDATE tickets SET status = ${status}, updated_at = ${now} WHERE id = ${ticketId} RETURNING *`
        )
        if (row === undefined) return yield* new TicketNotFound({ ticketId })
        return row
      }, orDieSql)

      return Tickets.of({ create, find, list, addMessage, messagesAfter, setStatus })
    })
  )
} as const
