import { Schema } from "effect"
import { MessageId, TicketId, UserId } from "../ids.ts"

export const TicketStatus = Schema.Literals(["open", "closed"])
export type TicketStatus = typeof TicketStatus.Type

export const MessageAuthor = Schema.Literals(["user", "operator"])
export type MessageAuthor = typeof MessageAuthor.Type

export const Ticket = Schema.Struct({
  id: TicketId,
  userId: UserId,
  subject: Schema.String,
  status: TicketStatus,
  /** Who wrote last: operators list tickets waiting for an answer by this. */
  lastAuthor: MessageAuthor,
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
export type Ticket = typeof Ticket.Type

/** A message; ids strictly increase, so a message id is the poll cursor (`after`). */
export const TicketMessage = Schema.Struct({
  id: MessageId,
  ticketId: TicketId,
  author: MessageAuthor,
  body: Schema.String,
  createdAt: Schema.Date
})
export type TicketMessage = typeof TicketMessage.Type

export const SUBJECT_MAX = 200
export const BODY_MAX = 4000
export const DEFAULT_SUBJECT = "Support request"
