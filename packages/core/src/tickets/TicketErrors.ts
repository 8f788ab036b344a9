import { Schema } from "effect"
import { TicketId } from "../ids.ts"
import { TicketStatus } from "./Ticket.ts"

/** No such ticket, or one owned by someone else (same answer on purpose). */
export class TicketNotFound extends Schema.TaggedError<TicketNotFound>()("TicketNotFound", {
  ticketId: TicketId
}) {}

/** A message or subject that is empty or too long. */
export class TicketMessageInvalid extends Schema.TaggedError<TicketMessageInvalid>()("TicketMessageInvalid", {
  reason: Schema.Literals(["Empty", "TooLong"]),
  message: Schema.String
}) {}

/** Closing a closed ticket or reopening an open one. */
export class TicketTransitionInvalid extends Schema.TaggedError<TicketTransitionInvalid>()("TicketTransitionInvalid", {
  ticketId: TicketId,
  from: TicketStatus,
  to: TicketStatus
}) {}
