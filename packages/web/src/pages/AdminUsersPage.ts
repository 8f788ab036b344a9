import type * as Dto from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import type { MessageKey } from "../i18n/en.ts"
import {
  actionForm,
  field,
  formGuards,
  money,
  pagination,
  section,
  statusBadge,
  submit,
  table,
  textarea,
  time
} from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"
import { personView } from "../layout/People.ts"
import type { HistoryEntry } from "@resale/wire/Dtos.ts"
import { causeText } from "./HistoryPage.ts"

type UserOut = typeof Dto.UserOut.Type

export interface AdminUsersList {
  readonly users: ReadonlyArray<UserOut & { readonly balance_uzs: number }>
  readonly total: number
  readonly offset: number
  readonly limit: number
}

export interface AdminUserDetail {
  readonly user: UserOut
  readonly balance_uzs: number
  readonly history: ReadonlyArray<HistoryEntry>
  readonly topups: ReadonlyArray<typeof Dto.Topup.Type>
  readonly orders: ReadonlyArray<typeof Dto.AdminOrder.Type>
  readonly tickets: ReadonlyArray<typeof Dto.Ticket.Type>
  readonly webhooks: ReadonlyArray<AdminUserWebhook>
}

/** One of the user's webhook endpoints as `GET /v2/admin/users/:user_id` gives it (no secret). */
export interface AdminUserWebhook {
  readonly id: number
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly created_at: string
  readonly last_delivery: {
    readonly event: string
    readonly status: "pending" | "delivered" | "failed"
    readonly attempts: number
    readonly last_status_code: number | null
    readonly last_error: string | null
    readonly created_at: string
    readonly delivered_at: string | null
  } | null
}

export const adminUsersPage = (ctx: PageContext, data: AdminUsersList, search: string): Html => {
  const { t } = ctx.tr
  return layout(ctx, {
    title: t("people.title"),
    active: "people",
    body: html`<h1>${t("people.title")}</h1>
${section(
  "search",
  t("people.search"),
  html`<form method="get" action="/v2/admin/users" role="search">
${field({ name: "search", label: t("people.searchLabel"), value: search, hint: t("people.searchHint") })}
${submit(t("people.find"))}</form>`
)}
${table({
  id: "users-table",
  caption: t("people.title"),
  headers: [t("common.user"), t("dash.balance"), t("api.keyTitle"), "#"],
  empty: t("people.none"),
  rows: data.users.map((u) => ({
    attrs: html` data-user-row="${u.user_id}"`,
    cells: [
      personView(u),
      money(ctx.tr, u.balance_uzs),
      u.has_api_key ? t("people.keyYes") : t("people.keyNo"),
      html`<a href="/v2/admin/users/${u.user_id}">#${u.user_id}</a>`
    ]
  }))
})}
${pagination(ctx.tr, `/v2/admin/users?search=${encodeURIComponent(search)}`, data.offset, data.limit, data.total)}`
  })
}

/** The correction form, behind a disclosure: opening it is the operator's first step, sending the second. */
const adjustForm = (ctx: PageContext, user: UserOut): Html => {
  const { t } = ctx.tr
  return section(
    "adjust",
    t("people.adjust"),
    html`<details class="confirm"><summary class="btn btn-secondary">${t("people.adjustOpen")}</summary>
<form method="post" action="/v2/admin/users/${user.user_id}/adjust">${formGuards(ctx, { idempotent: true })}
${field({ name: "amount_uzs", label: t("people.adjustAmount"), required: true, inputmode: "numeric", pattern: "[+\\-]?[0-9]{1,12}", hint: t("people.adjustAmountHint") })}
${textarea({ name: "reason", label: t("people.adjustReason"), required: true, maxlength: 500, rows: 2 })}
<p class="hint">${t("people.adjustWarn")}</p>
${submit(t("people.adjustSubmit"), { kind: "danger" })}</form></details>`
  )
}

/** The delivery log's generic reasons (`answered <status>`, `timed out`, ...) in the page's language. */
const deliveryReason = (ctx: PageContext, d: NonNullable<AdminUserWebhook["last_delivery"]>): string => {
  const { t } = ctx.tr
  if (d.last_error === "timed out") return t("people.webhookTimedOut")
  if (d.last_error === "could not connect") return t("people.webhookNoConnect")
  if (d.last_error?.startsWith("not queued")) return t("people.webhookNotQueued")
  if (d.last_status_code !== null) return t("people.webhookAnswered", { code: String(d.last_status_code) })
  return d.last_error ?? ""
}

const lastDelivery = (ctx: PageContext, w: AdminUserWebhook): Html => {
  const d = w.last_delivery
  if (d === null) return html`<span data-delivery="none">${ctx.tr.t("people.webhookNever")}</span>`
  const reason = d.status === "delivered" ? "" : deliveryReason(ctx, d)
  return html`${statusBadge(ctx.tr, "delivery", d.status)} <code>${d.event}</code> ${time(d.delivered_at ?? d.created_at)}
<p class="hint">${ctx.tr.t("people.webhookAttempts", { n: String(d.attempts) })}${reason === "" ? "" : ` · ${reason}`}</p>`
}

/** The user's webhook endpoints; removing one sits behind a disclosure, like the balance correction. */
const webhooksSection = (ctx: PageContext, data: AdminUserDetail): Html => {
  const { t } = ctx.tr
  const userId = data.user.user_id
  return section(
    "user-webhooks",
    t("people.webhooks"),
    html`<p class="hint">${t("people.webhooksLead")}</p>
${table({
  id: "user-webhooks-table",
  caption: t("people.webhooks"),
  headers: [
    t("api.webhookUrl"),
    t("api.webhookEvents"),
    t("api.webhookCreated"),
    t("people.webhookLast"),
    t("api.webhookActions")
  ],
  empty: t("people.webhooksNone"),
  rows: data.webhooks.map((w) => ({
    attrs: html` data-webhook-row="${w.id}"`,
    cells: [
      html`<code class="tx">${w.url}</code>`,
      w.events.join(", "),
      time(w.created_at),
      lastDelivery(ctx, w),
      html`<details class="confirm"><summary class="btn btn-secondary">${t("people.webhookDeleteOpen")}</summary>
<p class="hint">${t("people.webhookDeleteWarn")}</p>
${actionForm(ctx, `/v2/admin/users/${userId}/webhooks/${w.id}/delete`, t("people.webhookDeleteSubmit"), { kind: "danger" })}</details>`
    ]
  }))
})}`
  )
}

export const adminUserPage = (ctx: PageContext, data: AdminUserDetail): Html => {
  const { t } = ctx.tr
  const u = data.user
  const signed = (n: number) => `${n > 0 ? "+" : ""}${ctx.tr.uzs(n)}`
  return layout(ctx, {
    title: t("people.userTitle", { id: String(u.user_id) }),
    active: "people",
    body: html`<h1>${t("people.userTitle", { id: String(u.user_id) })}</h1>
<section class="card" id="person" aria-labelledby="person-h"><h2 id="person-h">${u.first_name ?? `#${u.user_id}`}</h2>
<p>${personView(u)}</p>
<p>${t("dash.balance")}: <strong id="user-balance" data-balance="${data.balance_uzs}">${ctx.tr.uzs(data.balance_uzs)}</strong></p>
<p>${t("api.keyTitle")}: ${u.has_api_key ? t("people.keyYes") : t("people.keyNo")} · ${t("field.tier")} ${u.tier}</p></section>
${adjustForm(ctx, u)}
${webhooksSection(ctx, data)}
${section(
  "user-history",
  t("history.title"),
  table({
    id: "user-history-table",
    caption: t("history.title"),
    headers: [t("common.date"), t("history.what"), t("common.amount"), t("history.balanceAfter")],
    empty: t("history.empty"),
    rows: data.history.map((e) => ({
      attrs: html` data-cause="${e.cause}"`,
      cells: [
        time(e.created_at),
        html`${causeText(ctx.tr, e)}${e.note ? html`<p class="hint">${e.note}</p>` : ""}`,
        signed(e.amount_uzs),
        ctx.tr.uzs(e.balance_after_uzs)
      ]
    }))
  })
)}
${section(
  "user-topups",
  t("admin.topupsTitle"),
  table({
    caption: t("admin.topupsTitle"),
    headers: ["#", t("common.amount"), t("common.status"), t("common.date")],
    empty: t("common.none"),
    rows: data.topups.map((tp) => ({
      cells: [
        `#${tp.topup_id}`,
        money(ctx.tr, tp.credited_uzs ?? tp.payable_uzs),
        html`${statusBadge(ctx.tr, "topup", tp.status)}${tp.admin_note ? html`<p class="reason">${tp.admin_note}</p>` : ""}`,
        time(tp.created_at)
      ]
    }))
  })
)}
${section(
  "user-orders",
  t("admin.ordersTitle"),
  table({
    caption: t("admin.ordersTitle"),
    headers: ["#", t("admin.kind"), t("orders.recipient"), t("orders.price"), t("common.status"), t("common.date")],
    empty: t("orders.empty"),
    rows: data.orders.map((o) => ({
      cells: [
        `#${o.order_id}`,
        t(`kind.${o.kind}` as MessageKey),
        `@${o.username}`,
        money(ctx.tr, o.price_uzs),
        statusBadge(ctx.tr, "order", o.status),
        time(o.created_at)
      ]
    }))
  })
)}
${section(
  "user-tickets",
  t("admin.ticketsTitle"),
  table({
    caption: t("admin.ticketsTitle"),
    headers: ["#", t("tickets.subject"), t("common.status"), t("common.date")],
    empty: t("common.none"),
    rows: data.tickets.map((tk) => ({
      cells: [
        html`<a href="/v2/admin/tickets/${tk.ticket_id}">#${tk.ticket_id}</a>`,
        tk.subject,
        statusBadge(ctx.tr, "ticket", tk.status),
        time(tk.created_at)
      ]
    }))
  })
)}`
  })
}
