import { Context, Effect, Layer, Option } from "effect"
import type { AccountCapReached } from "../caps/AccountCapReached.ts"
import { takeDaily } from "../caps/CapRules.ts"
import { AccountCaps } from "../caps/CapSettings.ts"
import { AccountActivity } from "../ports/AccountActivity.ts"
import type { TicketId, UserId } from "../ids.ts"
import type { Page, PageRequest } from "../Page.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Tickets } from "../ports/Tickets.ts"
import { Transactor } from "../ports/Transactor.ts"
import { canSee, type Viewer } from "../sessions/Session.ts"
import { currentDate } from "../Time.ts"
import { BODY_MAX, DEFAULT_SUBJECT, SUBJECT_MAX, type Ticket, type TicketMessage, type TicketStatus } from "./Ticket.ts"
import { TicketMessageInvalid, TicketNotFound, TicketTransitionInvalid } from "./TicketErrors.ts"

export interface TicketDetail {
  readonly ticket: Ticket
  readonly messages: ReadonlyArray<TicketMessage>
}

/** Support tickets. Messages are read by polling with the last seen message id as cursor. */
export class TicketService extends Context.Service<
  TicketService,
  {
    /**
     * Opens a ticket; an empty subject becomes a default one, an empty body takes the subject.
     * Capped per account per 24 h (`AccountCaps.ticketsPerDay`): each ticket is an operator's queue item.
     */
    readonly create: (
      userId: UserId,
      input: { readonly subject?: string; readonly body?: string }
    ) => Effect.Effect<TicketDetail, TicketMessageInvalid | AccountCapReached>
    readonly listOwn: (
      userId: UserId,
      filter: { readonly status?: TicketStatus } & PageRequest
    ) => Effect.Effect<Page<Ticket>>
    /** Operators: most recently updated first. */
    readonly list: (
      filter: { readonly status?: TicketStatus; readonly userId?: UserId } & PageRequest
    ) => Effect.Effect<Page<Ticket>>
    /** The ticket and all its messages, for its owner or an operator. */
    readonly detail: (viewer: Viewer, ticketId: TicketId) => Effect.Effect<TicketDetail, TicketNotFound>
    /** Messages with id > `after` (0 = from the start), for its owner or an operator. */
    readonly poll: (
      viewer: Viewer,
      ticketId: TicketId,
      after: number
    ) => Effect.Effect<ReadonlyArray<TicketMessage>, TicketNotFound>
    /** The owner writes; a closed ticket stays closed (operators still see the message). */
    readonly reply: (
      userId: UserId,
      ticketId: TicketId,
      body: string
    ) => Effect.Effect<TicketMessage, TicketNotFound | TicketMessageInvalid>
    /** An operator answers; the user is notified. */
    readonly answer: (
      ticketId: TicketId,
      body: string
    ) => Effect.Effect<TicketMessage, TicketNotFound | TicketMessageInvalid>
    readonly close: (ticketId: TicketId) => Effect.Effect<Ticket, TicketNotFound | TicketTransitionInvalid>
    readonly reopen: (ticketId: TicketId) => Effect.Effect<Ticket, TicketNotFound | TicketTransitionInvalid>
  }
>()("core/tickets/TicketService") {
  static readonly layer = Layer.effect(
    TicketService,
    Effect.gen(function* () {
      const tickets = yield* Tickets
      const outbox = yield* Outbox
      const tx = yield* Transactor
      const activity = yield* AccountActivity
      // Read once when the service is built (from config at the composition root), like its ports.
      const caps = yield* AccountCaps
      const capped = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        effect.pipe(Effect.provideService(AccountActivity, activity), Effect.provideService(AccountCaps, caps))

      const checkBody = Effect.fn("TicketService.checkBody")(function* (raw: string | undefined) {
        const body = (raw ?? "").trim()
        if (body === "") return yield* new TicketMessageInvalid({ reason: "Empty", message: "the message is empty" })
        if (body.length > BODY_MAX) {
          return yield* new TicketMessageInvalid({
            reason: "TooLong",
            message: `the message is longer than ${BODY_MAX} characters`
          })
        }
        return body
      })

      const create = Effect.fn("TicketService.create")(function* (
        userId: UserId,
        input: { readonly subject?: string; readonly body?: string }
      ) {
        const subjectText = (input.subject ?? "").trim()
        if (subjectText.length > SUBJECT_MAX) {
          return yield* new TicketMessageInvalid({
            reason: "TooLong",
            message: `the subject is longer than ${SUBJECT_MAX} characters`
          })
        }
        const body = yield* checkBody((input.body ?? "").trim() === "" ? subjectText : input.body)
        const now = yield* currentDate
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            yield* takeDaily(userId, "ticket.create", now)
            const { message, ticket } = yield* tickets.create({
              userId,
              subject: subjectText || DEFAULT_SUBJECT,
              body,
              now
            })
            yield* outbox.add({ kind: "ticket.created", userId: null, payload: { ticketId: ticket.id, userId } }, now)
            return { ticket, messages: [message] }
          })
        )
      }, capped)

      const findVisible = Effect.fn("TicketService.findVisible")(function* (viewer: Viewer, ticketId: TicketId) {
        const found = yield* tickets.find(ticketId)
        if (Option.isNone(found) || !canSee(viewer, found.value.userId)) return yield* new TicketNotFound({ ticketId })
        return found.value
      })

      const listOwn = Effect.fn("TicketService.listOwn")(function* (
        userId: UserId,
        filter: { readonly status?: TicketStatus } & PageRequest
      ) {
        return yield* tickets.list({ ...filter, userId })
      })

      const list = Effect.fn("TicketService.list")(function* (
        filter: { readonly status?: TicketStatus; readonly userId?: UserId } & PageRequest
      ) {
        return yield* tickets.list(filter)
      })

      const detail = Effect.fn("TicketService.detail")(function* (viewer: Viewer, ticketId: TicketId) {
        const ticket = yield* findVisible(viewer, ticketId)
        return { ticket, messages: yield* tickets.messagesAfter(ticketId, 0) }
      })

      const poll = Effect.fn("TicketService.poll")(function* (viewer: Viewer, ticketId: TicketId, after: number) {
        yield* findVisible(viewer, ticketId)
        return yield* tickets.messagesAfter(ticketId, Number.isSafeInteger(after) && after > 0 ? after : 0)
      })

      const reply = Effect.fn("TicketService.reply")(function* (userId: UserId, ticketId: TicketId, raw: string) {
        yield* findVisible({ kind: "user", userId }, ticketId)
        const body = yield* checkBody(raw)
        return yield* tickets.addMessage({ ticketId, author: "user", body, now: yield* currentDate })
      })

      const answer = Effect.fn("TicketService.answer")(function* (ticketId: TicketId, raw: string) {
        const body = yield* checkBody(raw)
        const now = yield* currentDate
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const ticket = yield* findVisible({ kind: "operator" }, ticketId)
            const message = yield* tickets.addMessage({ ticketId, author: "operator", body, now })
            yield* outbox.add(
              {
                kind: "ticket.answered",
                userId: ticket.userId,
                payload: { ticketId, messageId: message.id, subject: ticket.subject }
              },
              now
            )
            return message
          })
        )
      })

      const move = (ticketId: TicketId, from: TicketStatus, to: TicketStatus) =>
        Effect.gen(function* () {
          const now = yield* currentDate
          return yield* tx.withTransaction(
            Effect.gen(function* () {
              const ticket = yield* findVisible({ kind: "operator" }, ticketId)
              if (ticket.status !== from)
                return yield* new TicketTransitionInvalid({ ticketId, from: ticket.status, to })
              return yield* tickets.setStatus(ticketId, to, now)
            })
          )
        })

      const close = Effect.fn("TicketService.close")(function* (ticketId: TicketId) {
        return yield* move(ticketId, "open", "closed")
      })

      const reopen = Effect.fn("TicketService.reopen")(function* (ticketId: TicketId) {
        return yield* move(ticketId, "closed", "open")
      })

      return TicketService.of({ create, listOwn, list, detail, poll, reply, answer, close, reopen })
    })
  )
}
