import type * as Dto from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import { statusBadge, table, time } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import { userLink } from "../layout/People.ts"
import type { PageContext } from "../layout/PageContext.ts"

type Ticket = typeof Dto.Ticket.Type

/** Open tickets whose last word is the shopper's come first: they wait for an answer. */
const waiting = (ticket: Ticket) => ticket.status === "open" && ticket.last_author === "user"

export const adminTicketsPage = (ctx: PageContext, data: typeof Dto.Tickets.Type): Html => {
  const { t } = ctx.tr
  const sorted = [...data.tickets].sort(
    (a, b) =>
      Number(waiting(b)) - Number(waiting(a)) ||
      Number(b.status === "open") - Number(a.status === "open") ||
      b.updated_at.localeCompare(a.updated_at)
  )
  return layout(ctx, {
    title: t("admin.ticketsTitle"),
    active: "tickets",
    body: html`<h1>${t("admin.ticketsTitle")}</h1>
${table({
  id: "admin-tickets",
  caption: t("admin.ticketsTitle"),
  headers: ["#", t("tickets.subject"), t("common.user"), t("common.status"), t("tickets.updated")],
  empty: t("tickets.empty"),
  rows: sorted.map((ticket) => ({
    attrs: waiting(ticket) ? html` class="row-hot"` : html``,
    cells: [
      `#${ticket.ticket_id}`,
      html`<a href="/v2/admin/tickets/${ticket.ticket_id}">${ticket.subject}</a>`,
      userLink(ctx, ticket.user_id),
      html`${statusBadge(ctx.tr, "ticket", ticket.status)}${
        ticket.status === "open"
          ? html` <span class="hint">${waiting(ticket) ? t("admin.waitingAnswer") : t("admin.answered")}</span>`
          : ""
      }`,
      time(ticket.updated_at)
    ]
  }))
})}`
  })
}
