import { Context, type Effect, type Option } from "effect"
import type { TicketId, UserId } from "../ids.ts"
import type { Page, PageRequest } from "../Page.ts"
import type { MessageAuthor, Ticket, TicketMessage, TicketStatus } from "../tickets/Ticket.ts"
import type { TicketNotFound } from "../tickets/TicketErrors.ts"

/** Storage of support tickets and their messages. */
export class Tickets extends Context.Service<
  Tickets,
  {
    /** Creates an `open` ticket together with its first message (author `user`), atomically. */
    readonly create: (input: {
      readonly userId: UserId
      readonly subject: string
      readonly body: string
      readonly now: Date
    }) => Effect.Effect<{ readonly ticket: Ticket; readonly message: TicketMessage }>
    readonly find: (id: TicketId) => Effect.Effect<Option.Option<Ticket>>
    /** Most recently updated first. */
    readonly list: (
      filter: {
        readonly userId?: UserId
        readonly status?: TicketStatus
      } & PageRequest
    ) => Effect.Effect<Page<Ticket>>
    /**
     * Appends a message and sets the ticket's `lastAuthor` / `updatedAt`. Message ids are strictly
     * increasing (across all tickets), so `messagesAfter(ticket, lastSeenId)` never misses one.
     * Does not change the status.
     */
    readonly addMessage: (input: {
      readonly ticketId: TicketId
      readonly author: MessageAuthor
      readonly body: string
      readonly now: Date
    }) => Effect.Effect<TicketMessage, TicketNotFound>
    /** Messages with id > `after`, oldest first (at most 500). */
    readonly messagesAfter: (ticketId: TicketId, after: number) => Effect.Effect<ReadonlyArray<TicketMessage>>
    readonly setStatus: (id: TicketId, status: TicketStatus, now: Date) => Effect.Effect<Ticket, TicketNotFound>
  }
>()("core/ports/Tickets") {}
