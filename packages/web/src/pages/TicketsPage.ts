import type * as Dto from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import { field, formGuards, section, statusBadge, submit, table, textarea, time } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"

/** The shopper's support requests and the form to open a new one. */
export const ticketsPage = (ctx: PageContext, data: typeof Dto.Tickets.Type): Html => {
  const { t } = ctx.tr
  return layout(ctx, {
    title: t("tickets.title"),
    active: "support",
    body: html`<h1>${t("tickets.title")}</h1>
<p class="lead">${t("tickets.lead")}</p>
${table({
  caption: t("tickets.title"),
  headers: ["#", t("tickets.subject"), t("common.status"), t("tickets.updated")],
  empty: t("tickets.empty"),
  rows: data.tickets.map((ticket) => ({
    cells: [
      `#${ticket.ticket_id}`,
      html`<a href="/v2/tickets/${ticket.ticket_id}">${ticket.subject}</a>`,
      statusBadge(ctx.tr, "ticket", ticket.status),
      time(ticket.updated_at)
    ]
  }))
})}
${section(
  "new-ticket",
  t("tickets.new"),
  html`<form method="post" action="/v2/tickets/new">${formGuards(ctx)}
${field({ name: "subject", label: t("tickets.subject"), required: true, maxlength: 200 })}
${textarea({ name: "body", label: t("tickets.message"), required: true, maxlength: 4000, rows: 5 })}
${submit(t("tickets.submit"))}</form>`
)}`
  })
}
