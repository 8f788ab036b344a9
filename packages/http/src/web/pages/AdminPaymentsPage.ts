import { type Html, html } from "../Html.ts"
import type { MessageKey } from "../i18n/en.ts"
import { formGuards, money, statusBadge, submit, table, time } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import { userLink } from "../layout/People.ts"
import type { PageContext } from "../layout/PageContext.ts"

/** An incoming bank payment waiting for an operator, with the top-ups it could belong to. */
export interface AdminPayment {
  readonly payment_id: number
  readonly amount_uzs: number
  readonly card_last4: string | null
  readonly external_id: string | null
  readonly status: string
  readonly created_at: string
  readonly candidates: ReadonlyArray<{
    readonly topup_id: number
    readonly user_id: number
    readonly status: string
    readonly payable_uzs: number
    /** The owner's receipt-only credit of this amount that this payment most likely already is. */
    readonly credited_on_receipt: number | null
  }>
}

/** The payment the last assign was held for (a possible duplicate): its form offers the confirmation. */
const heldPayment = (ctx: PageContext): string | undefined => {
  const line = ctx.flash?.lines.find((l) => "key" in l && l.key === "error.paymentPossibleDuplicate")
  return line !== undefined && "key" in line ? String(line.params?.["payment"] ?? "") : undefined
}

const assignForm = (ctx: PageContext, payment: AdminPayment): Html => {
  const { t } = ctx.tr
  const offerConfirm = heldPayment(ctx) === String(payment.payment_id) || payment.candidates.some((c) => c.credited_on_receipt !== null)
  const id = `assign-${payment.payment_id}`
  return html`<form method="post" action="/v2/admin/payments/${payment.payment_id}/assign" class="assign">${formGuards(ctx, { idempotent: true })}
<label for="${id}">${t("admin.assignTo")}</label>
<input id="${id}" name="topup_id" type="number" min="1" step="1" inputmode="numeric" required${
    payment.candidates.length > 0 ? html` list="${id}-list" value="${payment.candidates.length === 1 ? String(payment.candidates[0]!.topup_id) : ""}"` : ""
  }>
${payment.candidates.length > 0 ? html`<datalist id="${id}-list">${payment.candidates.map((c) => html`<option value="${c.topup_id}">#${c.topup_id} · ${t("admin.userNo", { id: String(c.user_id) })} · ${t(`status.topup.${c.status}` as MessageKey)}</option>`)}</datalist>` : ""}
${
    offerConfirm
      ? html`<label class="check"><input type="checkbox" name="confirm_duplicate" value="true"> ${t("admin.confirmOtherMoney")}</label>`
      : ""
  }${submit(t("admin.assign"))}</form>`
}

const candidates = (ctx: PageContext, payment: AdminPayment): Html =>
  payment.candidates.length === 0
    ? html`<span class="hint">—</span>`
    : html`<ul class="plain">${
      payment.candidates.map((c) =>
        html`<li>#${c.topup_id} · ${userLink(ctx, c.user_id)} · ${statusBadge(ctx.tr, "topup", c.status)}${
          c.credited_on_receipt === null
            ? ""
            : html`<p class="warn" data-credited-on-receipt="${c.credited_on_receipt}">${ctx.tr.t("admin.creditedOnReceipt")} #${c.credited_on_receipt}</p>`
        }</li>`
      )
    }</ul>`

export const adminPaymentsPage = (ctx: PageContext, payments: ReadonlyArray<AdminPayment>): Html => {
  const tr = ctx.tr
  return layout(ctx, {
    title: tr.t("admin.paymentsTitle"),
    active: "payments",
    body: html`<h1>${tr.t("admin.paymentsTitle")}</h1>
<p class="lead">${tr.t("admin.paymentsLead")}</p>
${
      table({
        id: "payments-table",
        caption: tr.t("admin.paymentsTitle"),
        headers: ["#", tr.t("common.amount"), tr.t("admin.card"), tr.t("admin.reference"), tr.t("common.status"), tr.t("admin.received"), tr.t("admin.candidates"), tr.t("common.actions")],
        empty: tr.t("admin.noPayments"),
        rows: payments.map((p) => ({
          attrs: html` data-payment-id="${p.payment_id}"`,
          cells: [
            `#${p.payment_id}`,
            money(tr, p.amount_uzs),
            p.card_last4 ? html`<span class="nowrap">•••• ${p.card_last4}</span>` : "—",
            p.external_id ?? "—",
            statusBadge(tr, "payment", p.status),
            time(p.created_at),
            candidates(ctx, p),
            assignForm(ctx, p)
          ]
        }))
      })
    }`
  })
}
