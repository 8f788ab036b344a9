import { TicketId } from "@resale/core/ids.ts"
import { type Ticket, type TicketMessage, TicketStatus } from "@resale/core/tickets/Ticket.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import type { Command } from "commander"
import { Effect } from "effect"
import { nonBlank, positiveId, type UserRef, userRef } from "../Args.ts"
import { CliCore } from "../Layers.ts"
import { fields, formatDate, listing, output } from "../Output.ts"
import { messageJson, ticketJson } from "../Records.ts"
import { type CommonOptions, runCommand } from "../Runner.ts"
import { indentedBlock } from "../TerminalText.ts"
import { choiceOption, operator, type PageOptions, pageOf, resolveOptionalUser, withJson, withPage } from "./Common.ts"

const ticketRow = (t: Ticket) => [
  t.id,
  t.userId,
  t.status,
  t.lastAuthor === "user" ? "yes" : "",
  t.subject.length > 48 ? `${t.subject.slice(0, 47)}…` : t.subject,
  t.updatedAt
]

const ticketHeader = (t: Ticket): string =>
  fields([
    ["Ticket", `#${t.id}`],
    ["User", `#${t.userId}`],
    ["Subject", t.subject],
    ["Status", t.status],
    ["Waiting for", t.lastAuthor === "user" ? "operator" : "user"],
    ["Created", t.createdAt],
    ["Updated", t.updatedAt]
  ])

// The body indented under its heading: a line of it cannot pass for the next heading or the CLI's own.
const messageText = (m: TicketMessage): string =>
  `--- #${m.id} ${m.author} at ${formatDate(m.createdAt)}\n${indentedBlock(m.body)}`

interface ListOptions extends CommonOptions, PageOptions {
  readonly status?: TicketStatus
  readonly user?: UserRef
}

const list = (options: ListOptions) =>
  Effect.gen(function* () {
    const userId = yield* resolveOptionalUser(options.user)
    const page = yield* (yield* TicketService).list({
      ...pageOf(options),
      ...(options.status === undefined ? {} : { status: options.status }),
      ...(userId === undefined ? {} : { userId })
    })
    return output(
      { tickets: page.items.map(ticketJson), total: page.total },
      listing(
        ["ID", "USER", "STATUS", "NEEDS ANSWER", "SUBJECT", "UPDATED"],
        page.items.map(ticketRow),
        {
          total: page.total,
          offset: options.offset
        },
        "tickets"
      )
    )
  })

const show = (id: TicketId) =>
  Effect.gen(function* () {
    const detail = yield* (yield* TicketService).detail(operator, id)
    return output(
      { ticket: ticketJson(detail.ticket), messages: detail.messages.map(messageJson) },
      [ticketHeader(detail.ticket), "", ...detail.messages.map(messageText)].join("\n")
    )
  })

interface ReplyOptions extends CommonOptions {
  readonly body: string
}

const reply = (id: TicketId, options: ReplyOptions) =>
  Effect.gen(function* () {
    const message = yield* (yield* TicketService).answer(id, options.body)
    return output(
      messageJson(message),
      `Answer #${message.id} added to ticket #${message.ticketId}; the user is notified.`
    )
  })

const move = (id: TicketId, to: "close" | "reopen") =>
  Effect.gen(function* () {
    const tickets = yield* TicketService
    const ticket = to === "close" ? yield* tickets.close(id) : yield* tickets.reopen(id)
    return output(ticketJson(ticket), `Ticket #${ticket.id} is ${ticket.status}.`)
  })

const ticketId = positiveId("the ticket id", TicketId)

export const registerTickets = (program: Command): void => {
  const tickets = program.command("tickets").description("support tickets")

  withPage(
    withJson(
      tickets
        .command("list")
        .description("list tickets, most recently updated first")
        .addOption(choiceOption("--status <status>", "only tickets in this status", TicketStatus.literals))
        .option("--user <user>", "only this user's tickets (id or @username)", userRef)
    )
  ).action((options: ListOptions) => runCommand(CliCore, list(options), options))

  withJson(
    tickets.command("show").description("a ticket with all its messages").argument("<id>", "ticket id", ticketId)
  ).action((id: TicketId, options: CommonOptions) => runCommand(CliCore, show(id), options))

  withJson(
    tickets
      .command("reply")
      .description("answer a ticket as the operator")
      .argument("<id>", "ticket id", ticketId)
      .requiredOption("--body <text>", "the answer", nonBlank("--body"))
  ).action((id: TicketId, options: ReplyOptions) => runCommand(CliCore, reply(id, options), options))

  withJson(tickets.command("close").description("close an open ticket").argument("<id>", "ticket id", ticketId)).action(
    (id: TicketId, options: CommonOptions) => runCommand(CliCore, move(id, "close"), options)
  )

  withJson(
    tickets.command("reopen").description("reopen a closed ticket").argument("<id>", "ticket id", ticketId)
  ).action((id: TicketId, options: CommonOptions) => runCommand(CliCore, move(id, "reopen"), options))
}
