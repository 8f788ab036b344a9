import {
  type MessageAuthor,
  type MessageId,
  type Page,
  type PageRequest,
  type Ticket,
  type TicketId,
  type TicketMessage,
  TicketNotFound,
  Tickets,
  type TicketStatus,
  type UserId
} from "@resale/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { date, id, int, orDieSql, totalOf } from "./SqlValues.ts"

interface TicketRow {
  readonly id: bigint
  readonly user_id: bigint
  readonly subject: string
  readonly status: string
  readonly last_author: string
  readonly created_at: Date
  readonly updated_at: Date
}

interface MessageRow {
  readonly id: bigint
  readonly ticket_id: bigint
  readonly author: string
  readonly body: string
  readonly created_at: Date
}

const toTicket = (row: TicketRow): Ticket => ({
  id: id<TicketId>(row.id),
  userId: id<UserId>(row.user_id),
  subject: row.subject,
  status: row.status as TicketStatus,
  lastAuthor: row.last_author as MessageAuthor,
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at)
})

const toMessage = (row: MessageRow): TicketMessage => ({
  id: id<MessageId>(row.id),
  ticketId: id<TicketId>(row.ticket_id),
  author: row.author as MessageAuthor,
  body: row.body,
  createdAt: date(row.created_at)
})

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
    Effect.gen(function*() {
      const sql = yield* SqlClient

      const create = Effect.fn("Tickets.create")(function*(input: {
        readonly userId: UserId
        readonly subject: string
        readonly body: string
        readonly now: Date
      }) {
        const { body, now, subject, userId } = input
        const rows = yield* sql<TicketRow & { readonly m_id: bigint; readonly m_body: string }>`
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
        const [row] = rows
        if (row === undefined) return yield* Effect.die(new Error("ticket insert returned no row"))
        const ticket = toTicket(row)
        const message = toMessage({ id: row.m_id, ticket_id: row.id, author: "user", body: row.m_body, created_at: row.created_at })
        return { ticket, message }
      }, orDieSql)

      const find = Effect.fn("Tickets.find")(function*(ticketId: TicketId) {
        const [row] = yield* sql<TicketRow>`SELECT * FROM tickets WHERE id = ${ticketId}`
        return row === undefined ? Option.none() : Option.some(toTicket(row))
      }, orDieSql)

      const list = Effect.fn("Tickets.list")(function*(
        filter: { readonly userId?: UserId; readonly status?: TicketStatus } & PageRequest
      ) {
        const where = sql.and([
          ...(filter.userId === undefined ? [] : [sql`user_id = ${filter.userId}`]),
          ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
        ])
        const rows = yield* sql<TicketRow & { readonly total: bigint }>`
          SELECT *, count(*) OVER () AS total FROM tickets WHERE ${where}
          ORDER BY updated_at DESC, id DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`
        const total = rows.length > 0 || filter.offset === 0
          ? totalOf(rows)
          : int((yield* sql<{ n: bigint }>`SELECT count(*) AS n FROM tickets WHERE ${where}`)[0]?.n ?? 0)
        return { items: rows.map(toTicket), total } satisfies Page<Ticket>
      }, orDieSql)

      const addMessage = Effect.fn("Tickets.addMessage")(function*(input: {
        readonly ticketId: TicketId
        readonly author: MessageAuthor
        readonly body: string
        readonly now: Date
      }) {
        const { author, body, now, ticketId } = input
        const [row] = yield* sql<MessageRow>`
          WITH t AS (
            UPDATE tickets SET last_author = ${author}, updated_at = ${now}
            WHERE id = ${ticketId}
            RETURNING id
          )
          INSERT INTO ticket_messages (ticket_id, author, body, created_at)
          SELECT id, ${author}, ${body}, ${now} FROM t
          RETURNING *`
        if (row === undefined) return yield* new TicketNotFound({ ticketId })
        return toMessage(row)
      }, orDieSql)

      const messagesAfter = Effect.fn("Tickets.messagesAfter")(function*(ticketId: TicketId, after: number) {
        const rows = yield* sql<MessageRow>`
          SELECT * FROM ticket_messages WHERE ticket_id = ${ticketId} AND id > ${Math.max(0, Math.trunc(after))}
          ORDER BY id LIMIT ${POLL_LIMIT}`
        return rows.map(toMessage)
      }, orDieSql)

      const setStatus = Effect.fn("Tickets.setStatus")(function*(ticketId: TicketId, status: TicketStatus, now: Date) {
        const [row] = yield* sql<TicketRow>`
          UPDATE tickets SET status = ${status}, updated_at = ${now} WHERE id = ${ticketId} RETURNING *`
        if (row === undefined) return yield* new TicketNotFound({ ticketId })
        return toTicket(row)
      }, orDieSql)

      return Tickets.of({ create, find, list, addMessage, messagesAfter, setStatus })
    })
  )
} as const
