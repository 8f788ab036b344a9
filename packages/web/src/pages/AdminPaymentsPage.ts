import { type Html, html } from "../Html.ts"
import { field, formGuards, money, pagination, select, statusBadge, submit, table, time } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import { userLink } from "../layout/People.ts"
import type { PageContext } from "../layout/PageContext.ts"

/** A top-up an unresolved payment may belong to (open, same or near amount). */
export interface PaymentCandidate {
  readonly topup_id: number
  readonly user_id: number
  readonly status: string
  readonly payable_uzs: number
  readonly difference_uzs: number
  readonly created_at: string
  /** The owner's receipt-only credit of this amount that this payment most likely already is. */
  readonly credited_on_receipt: number | null
}

/** An incoming bank payment as `/v2/admin/payments` lists it. */
export interface AdminPayment {
  readonly payment_id: number
  readonly amount_uzs: number
  readonly card_last4: string | null
  readonly external_id: string | null
  readonly status: string
  readonly created_at: string
  readonly topup_id: number | null
  readonly topup_user_id: number | null
  readonly assigned: boolean
  readonly candidates: ReadonlyArray<PaymentCandidate>
}

export interface PaymentsFilter {
  readonly status: string
  readonly from: string
  readonly to: string
  readonly amount: string
  readonly offset: number
  readonly limit: number
}

export interface AdminPaymentsData {
  readonly payments: ReadonlyArray<AdminPayment>
  readonly total: number
  readonly filter: PaymentsFilter
}

export const PAYMENT_FILTERS = [
  "all",
  "unresolved",
  "unmatched",
  "ambiguous",
  "matched",
  "assigned",
  "received"
] as const

/** The payment the last assign was held for (a possible duplicate): its forms offer the confirmation. */
const heldPayment = (ctx: PageContext): string | undefined => {
  const line = ctx.flash?.lines.find((l) => "key" in l && l.key === "error.paymentPossibleDuplicate")
  return line !== undefined && "key" in line ? String(line.params?.["payment"] ?? "") : undefined
}

const confirmOther = (ctx: PageContext, payment: AdminPayment): Html =>
  heldPayment(ctx) === String(payment.payment_id) || payment.candidates.some((c) => c.credited_on_receipt !== null)
    ? html`<label class="check"><input type="checkbox" name="confirm_duplicate" value="true"> ${ctx.tr.t("admin.confirmOtherMoney")}</label>`
    : html``

const candidate = (ctx: PageContext, payment: AdminPayment, c: PaymentCandidate): Html => {
  const { t, uzs } = ctx.tr
  const amount =
    c.difference_uzs === 0
      ? t("payments.same")
      : t("payments.differs", { amount: `uzs:${c.payable_uzs}`, diff: `uzs:${Math.abs(c.difference_uzs)}` })
  return html`<label class="check candidate" data-candidate="${c.topup_id}"><input type="radio" name="topup_id" value="${c.topup_id}" required${
    payment.candidates.length === 1 ? html` checked` : ""
  }> <span>#${c.topup_id} · ${userLink(ctx, c.user_id)} · ${statusBadge(ctx.tr, "topup", c.status)} · <span class="hint">${amount} · ${time(c.created_at)}</span>${
    c.credited_on_receipt === null
      ? ""
      : html`<span class="warn" data-credited-on-receipt="${c.credited_on_receipt}">${t("admin.creditedOnReceipt")} #${c.credited_on_receipt} (${uzs(payment.amount_uzs)})</span>`
  }</span></label>`
}

/** Assigning asks first, without script: "Assign…" opens the choice and says what it does; sending it is the second step. */
const assign = (ctx: PageContext, payment: AdminPayment): Html => {
  const { t } = ctx.tr
  const action = `/v2/admin/payments/${payment.payment_id}/assign`
  const id = `assign-${payment.payment_id}`
  const pick =
    payment.candidates.length === 0
      ? html`<p class="hint">${t("payments.noCandidates")}</p>`
      : html`<form method="post" action="${action}" class="assign-pick">${formGuards(ctx, { idempotent: true })}
<fieldset><legend>${t("admin.candidates")}</legend>${payment.candidates.map((c) => candidate(ctx, payment, c))}</fieldset>
${confirmOther(ctx, payment)}${submit(t("payments.pick"))}</form>`
  // Open again after a refusal: the failure is drawn inside it (the redirect's #pay-N), next to what was chosen.
  const open = heldPayment(ctx) === String(payment.payment_id) || ctx.flash?.form === `pay-${payment.payment_id}`
  return html`<details class="confirm assign-step" id="pay-${payment.payment_id}"${open ? html` open` : ""}><summary class="btn btn-secondary">${t("payments.assignOpen")}</summary>
<p class="hint">${t("payments.assignText", { amount: `uzs:${payment.amount_uzs}` })}</p>
${pick}
<form method="post" action="${action}" class="assign-number">${formGuards(ctx, { idempotent: true })}
<label for="${id}">${t("payments.byNumber")}</label>
<input id="${id}" name="topup_id" type="number" min="1" step="1" inputmode="numeric" required>
${confirmOther(ctx, payment)}${submit(t("admin.assign"), { kind: "secondary" })}</form></details>`
}

const filters = (ctx: PageContext, filter: PaymentsFilter): Html => {
  const { t } = ctx.tr
  return html`<form method="get" action="/v2/admin/payments" class="filters card" id="payment-filters">
${select({ name: "status", label: t("common.status"), options: PAYMENT_FILTERS.map((s) => ({ value: s, label: s === "all" ? t("common.all") : s === "unresolved" ? t("payments.waiting") : s === "assigned" ? t("payments.assigned") : t(`status.payment.${s}`), selected: filter.status === s })) })}
${field({ name: "from", label: t("reports.from"), type: "date", value: filter.from })}
${field({ name: "to", label: t("reports.to"), type: "date", value: filter.to })}
${field({ name: "amount", label: t("common.amount"), value: filter.amount, inputmode: "numeric", pattern: "[0-9 ,]*" })}
${submit(t("common.filter"), { kind: "secondary" })}</form>`
}

export const adminPaymentsPage = (ctx: PageContext, data: AdminPaymentsData): Html => {
  const tr = ctx.tr
  const { filter } = data
  const query = new URLSearchParams({ status: filter.status, from: filter.from, to: filter.to, amount: filter.amount })
  return layout(ctx, {
    title: tr.t("admin.paymentsTitle"),
    active: "payments",
    body: html`<h1>${tr.t("admin.paymentsTitle")}</h1>
<p class="lead">${tr.t("admin.paymentsLead")}</p>
${filters(ctx, filter)}
${table({
  id: "payments-table",
  caption: tr.t("admin.paymentsTitle"),
  headers: [
    "#",
    tr.t("common.amount"),
    tr.t("admin.card"),
    tr.t("admin.reference"),
    tr.t("common.status"),
    tr.t("admin.received"),
    tr.t("payments.topup"),
    tr.t("common.actions")
  ],
  empty: tr.t("admin.noPayments"),
  rows: data.payments.map((p) => ({
    attrs: html` data-payment-id="${p.payment_id}" id="payment-${p.payment_id}"`,
    cells: [
      `#${p.payment_id}`,
      money(tr, p.amount_uzs),
      p.card_last4 ? html`<span class="nowrap">•••• ${p.card_last4}</span>` : "—",
      p.external_id ?? "—",
      html`${statusBadge(tr, "payment", p.status)}${p.assigned ? html`<br><span class="hint" data-assigned>${tr.t("payments.assignedBy")}</span>` : ""}`,
      time(p.created_at),
      p.topup_id === null
        ? "—"
        : html`#${p.topup_id}${p.topup_user_id === null ? "" : html` · ${userLink(ctx, p.topup_user_id)}`}`,
      p.status === "unmatched" || p.status === "ambiguous" ? assign(ctx, p) : "—"
    ]
  }))
})}
${pagination(tr, `/v2/admin/payments?${query}`, filter.offset, filter.limit, data.total)}`
  })
}
