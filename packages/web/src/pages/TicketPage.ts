import type * as Dto from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import { actionForm, formGuards, statusBadge, submit, textarea, time } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import { userLink } from "../layout/People.ts"
import type { PageContext } from "../layout/PageContext.ts"

type Detail = typeof Dto.TicketDetail.Type
type Message = typeof Dto.TicketMessage.Type

export interface TicketData {
  readonly detail: Detail
  /** Who is looking: the shopper sees "You" / "Support", the operator the other way round. */
  readonly viewer: "user" | "operator"
}

const message = (ctx: PageContext, viewer: TicketData["viewer"], m: Message): Html => {
  const { t } = ctx.tr
  const mine = m.author === viewer
  const who =
    m.author === "operator" ? (mine ? t("ticket.you") : t("ticket.support")) : mine ? t("ticket.you") : t("common.user")
  return html`<li class="msg msg-${m.author}${mine ? " msg-mine" : ""}" data-message-id="${m.message_id}"><p class="msg-meta"><strong>${who}</strong> ${time(
    m.created_at
  )}</p><p class="msg-body">${m.body}</p></li>`
}

/** A ticket's conversation; new messages arrive by polling `…/poll?after=<cursor>`. */
export const ticketPage = (ctx: PageContext, data: TicketData): Html => {
  const { t } = ctx.tr
  const { ticket, messages } = data.detail
  const id = ticket.ticket_id
  const operator = data.viewer === "operator"
  const base = operator ? `/v2/admin/tickets/${id}` : `/v2/tickets/${id}`
  const cursor = messages.reduce((max, m) => Math.max(max, m.message_id), 0)
  const title = t("ticket.title", { id: String(id), subject: ticket.subject })
  const replyLabel = operator ? t("admin.answer") : t("ticket.reply")
  const actions = operator
    ? ticket.status === "open"
      ? actionForm(ctx, `${base}/close`, t("admin.closeTicket"), { kind: "secondary" })
      : actionForm(ctx, `${base}/reopen`, t("admin.reopenTicket"), { kind: "secondary" })
    : html``
  return layout(ctx, {
    title,
    active: operator ? "tickets" : "support",
    body: html`<p><a href="${operator ? "/v2/admin/tickets" : "/v2/tickets"}">← ${operator ? t("admin.ticketsTitle") : t("ticket.back")}</a></p>
<h1>${title}</h1>
<p>${statusBadge(ctx.tr, "ticket", ticket.status)}${operator ? html` · ${userLink(ctx, ticket.user_id)}` : ""} ${actions}</p>
${!operator && ticket.status === "closed" ? html`<p class="hint">${t("ticket.closedNote")}</p>` : ""}
<p class="hint">${t("ticket.live")}</p>
<ol class="conversation" id="conversation" aria-live="polite" aria-label="${title}" data-viewer="${data.viewer}">${messages.map(
      (m) => message(ctx, data.viewer, m)
    )}</ol>
<form method="post" action="${base}/reply" class="card reply" id="reply">${formGuards(ctx)}
${textarea({ name: "body", label: replyLabel, required: true, maxlength: 4000, rows: 4 })}
${submit(operator ? t("admin.send") : t("ticket.send"))}</form>`,
    data: { ticketPoll: `${base}/poll`, cursor, viewer: data.viewer }
  })
}
