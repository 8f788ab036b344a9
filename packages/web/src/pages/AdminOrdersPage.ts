import type * as Dto from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import {
  actionForm,
  formGuards,
  money,
  pagination,
  select,
  statusBadge,
  submit,
  table,
  time
} from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import { userLink } from "../layout/People.ts"
import type { PageContext } from "../layout/PageContext.ts"
import { clock, type GiftTitles, orderItem, paymentUrl, shownStatus } from "./OrderViews.ts"

type Order = typeof Dto.AdminOrder.Type

export interface AdminOrdersFilter {
  readonly status: string | null
  readonly kind: string | null
  readonly offset: number
  readonly limit: number
}

export interface AdminOrdersData {
  readonly orders: ReadonlyArray<Order>
  readonly total: number
  readonly filter: AdminOrdersFilter
  readonly gifts: GiftTitles
}

const STATUSES = ["needs_attention", "queued", "processing", "completed", "failed"] as const
const KINDS = ["stars", "premium", "gift"] as const

const filters = (ctx: PageContext, filter: AdminOrdersFilter): Html => {
  const { t } = ctx.tr
  return html`<form method="get" action="/v2/admin/orders" class="filters card">
${select({ name: "status", label: t("common.status"), options: [{ value: "", label: t("common.all"), selected: filter.status === null }, ...STATUSES.map((s) => ({ value: s, label: t(`status.order.${s}`), selected: filter.status === s }))] })}
${select({ name: "kind", label: t("admin.kind"), options: [{ value: "", label: t("common.all"), selected: filter.kind === null }, ...KINDS.map((k) => ({ value: k, label: t(`kind.${k}`), selected: filter.kind === k }))] })}
${submit(t("common.filter"), { kind: "secondary" })}</form>`
}

/**
 * What the checks of an order found: tx hash (linked where an explorer shows the chain), Ref#, payment
 * record state. An order completed on its own evidence (delivery not confirmed by Fragment) also shows
 * Fragment's answer to its signed message (`confirmReq`: accepted, or it would not have completed) and
 * the evidence note, which says why the delivery could not be read.
 */
const evidence = (ctx: PageContext, order: Order): Html => {
  const e = order.evidence
  if (e === null) return html``
  const url = paymentUrl(ctx.explorer, e.tx_hash)
  const tx = e.tx_hash
    ? html`<dt>tx</dt><dd>${url === null ? html`<code>${e.tx_hash}</code>` : html`<a href="${url}" rel="noopener"><code>${e.tx_hash}</code></a>`}</dd>`
    : ""
  const paid =
    order.delivery === "paid_unconfirmed"
      ? html`<dt>confirmReq</dt><dd data-confirm-req>accepted</dd><dt>note</dt><dd class="reason">${e.answers.at(-1) ?? "—"}</dd>`
      : html`<dt>checks</dt><dd>${String(order.unknown_checks)}</dd>`
  return html`<dl class="evidence">${tx}${e.ref ? html`<dt>Ref#</dt><dd><code>${e.ref}</code></dd>` : ""}${
    e.chain_state ? html`<dt>chain</dt><dd>${e.chain_state}</dd>` : ""
  }${paid}</dl>`
}

const actions = (ctx: PageContext, order: Order): Html => {
  const { t } = ctx.tr
  const base = `/v2/admin/orders/${order.order_id}`
  const retry =
    order.status === "failed" ? actionForm(ctx, `${base}/retry`, t("admin.retry"), { idempotent: true }) : html``
  // Refund and mark-done move money or close an order for good: each is a second click after opening it (no script needed).
  // Delivery unknown past the limit: look again (same payment, never a second one) or refund once.
  const attention =
    order.status === "needs_attention"
      ? html`${actionForm(ctx, `${base}/recheck`, t("admin.recheck"), { idempotent: true })}
<details class="confirm"><summary class="btn btn-secondary">${t("admin.refund")}…</summary>
<form method="post" action="${base}/refund" class="refund">${formGuards(ctx, { idempotent: true })}
<label for="note-${order.order_id}">${t("admin.refundNote")} <span class="hint">(${t("common.optional")})</span></label>
<input id="note-${order.order_id}" name="note" maxlength="500">
${submit(t("admin.refund"), { kind: "danger" })}</form></details>`
      : html``
  const done =
    order.status === "completed"
      ? html``
      : html`<details class="confirm"><summary class="btn btn-secondary">${t("admin.markDone")}…</summary>
<form method="post" action="${base}/mark-done" class="mark-done">${formGuards(ctx, { idempotent: true })}
<label for="tx-${order.order_id}">${t("admin.txId")} <span class="hint">(${t("common.optional")})</span></label>
<input id="tx-${order.order_id}" name="tx_id" maxlength="200">
${submit(t("admin.markDone"), { kind: "secondary" })}</form></details>`
  return html`${retry}${attention}${done}`
}

export const adminOrdersPage = (ctx: PageContext, data: AdminOrdersData): Html => {
  const { t } = ctx.tr
  const query = [
    data.filter.status ? `status=${data.filter.status}` : "",
    data.filter.kind ? `kind=${data.filter.kind}` : ""
  ]
    .filter(Boolean)
    .join("&")
  return layout(ctx, {
    title: t("admin.ordersTitle"),
    active: "adminOrders",
    body: html`<h1>${t("admin.ordersTitle")}</h1>
${filters(ctx, data.filter)}
${table({
  id: "admin-orders",
  caption: t("admin.ordersTitle"),
  headers: [
    "#",
    t("common.user"),
    t("orders.item"),
    t("orders.recipient"),
    t("orders.price"),
    t("common.status"),
    t("orders.reason"),
    t("orders.attempts"),
    t("admin.txId"),
    t("common.date"),
    t("common.actions")
  ],
  empty: t("orders.empty"),
  rows: data.orders.map((o) => ({
    attrs: html` data-order-id="${o.order_id}"`,
    cells: [
      `#${o.order_id}`,
      userLink(ctx, o.user_id),
      orderItem(ctx.tr, o, data.gifts),
      `@${o.username}`,
      money(ctx.tr, o.price_uzs),
      statusBadge(ctx.tr, "order", shownStatus(o)),
      o.error
        ? html`<span class="reason">${o.error}</span>${evidence(ctx, o)}`
        : o.delivery === "paid_unconfirmed"
          ? evidence(ctx, o)
          : "—",
      // A queued order waiting out its backoff: when it is tried next (Tashkent time).
      o.status === "queued" && o.next_attempt_at !== null && o.attempts > 0
        ? html`${String(o.attempts)} <span class="hint" data-next-attempt>${t("orders.nextAttempt", { time: clock(o.next_attempt_at) })}</span>`
        : String(o.attempts),
      o.tx_id ? html`<code class="tx">${o.tx_id}</code>` : "—",
      time(o.created_at),
      actions(ctx, o)
    ]
  }))
})}
${pagination(ctx.tr, query ? `/v2/admin/orders?${query}` : "/v2/admin/orders", data.filter.offset, data.filter.limit, data.total)}`
  })
}
