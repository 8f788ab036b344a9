import { Effect, Layer, Option, Result } from "effect"
import type { MessageId, TicketId } from "../ids.ts"
import { Tickets } from "../ports/Tickets.ts"
import type { Ticket, TicketMessage } from "../tickets/Ticket.ts"
import { TicketNotFound } from "../tickets/TicketErrors.ts"
import { MemoryDb, nextId } from "./MemoryDb.ts"
import { paginate } from "./paginate.ts"

/** `Tickets` over the in-memory database; message ids come from one global sequence. */
export const MemoryTickets = Layer.effect(
  Tickets,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    return Tickets.of({
      create: ({ body, now, subject, userId }) =>
        db.read((s) => {
          const ticket: Ticket = {
            id: nextId(s, "tickets") as TicketId,
            userId,
            subject,
            status: "open",
            lastAuthor: "user",
            createdAt: now,
            updatedAt: now
          }
          const message: TicketMessage = {
            id: nextId(s, "messages") as MessageId,
            ticketId: ticket.id,
            author: "user",
            body,
            createdAt: now
          }
          s.tickets.set(ticket.id, ticket)
          s.messages.push(message)
          return { ticket, message }
        }),
      find: (id) => db.read((s) => Option.fromNullishOr(s.tickets.get(id))),
      list: (filter) =>
        db.read((s) =>
          paginate(
            [...s.tickets.values()]
              .filter((t) => filter.userId === undefined || t.userId === filter.userId)
              .filter((t) => filter.status === undefined || t.status === filter.status)
              .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || b.id - a.id),
            filter
          )
        ),
      addMessage: ({ author, body, now, ticketId }) =>
        db.run<TicketMessage, TicketNotFound>((s) => {
          const ticket = s.tickets.get(ticketId)
          if (ticket === undefined) return Result.fail(new TicketNotFound({ ticketId }))
          const message: TicketMessage = {
            id: nextId(s, "messages") as MessageId,
            ticketId,
            author,
            body,
            createdAt: now
          }
          s.messages.push(message)
          s.tickets.set(ticketId, { ...ticket, lastAuthor: author, updatedAt: now })
          return Result.succeed(message)
        }),
      messagesAfter: (ticketId, after) =>
        db.read((s) => s.messages.filter((m) => m.ticketId === ticketId && m.id > after).slice(0, 500)),
      setStatus: (id, status, now) =>
        db.run<Ticket, TicketNotFound>((s) => {
          const ticket = s.tickets.get(id)
          if (ticket === undefined) return Result.fail(new TicketNotFound({ ticketId: id }))
          const next: Ticket = { ...ticket, status, updatedAt: now }
          s.tickets.set(id, next)
          return Result.succeed(next)
        })
    })
  })
)
