import type * as Dto from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import { formGuards, money, section, statusBadge, table, time } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import { userLink } from "../layout/People.ts"
import type { PageContext } from "../layout/PageContext.ts"

/** A top-up as operators see it: the wire record plus the receipt's content type for the preview. */
export type AdminTopup = typeof Dto.AdminTopup.Type & { readonly receipt_type: string | null }

export interface AdminTopupsData {
  readonly queue: ReadonlyArray<AdminTopup>
  readonly history: ReadonlyArray<AdminTopup>
}

const receipt = (ctx: PageContext, topup: AdminTopup): Html => {
  const { t } = ctx.tr
  if (!topup.has_receipt) return html`<span class="hint">${t("receipt.none")}</span>`
  const href = `/v2/receipts/${topup.topup_id}`
  return topup.receipt_type?.startsWith("image/")
    ? html`<a href="${href}" target="_blank" rel="noopener" class="receipt-link"><img class="receipt" src="${href}" alt="${t("receipt.open")} #${topup.topup_id}" loading="lazy" width="160" height="120"></a>`
    : html`<a href="${href}" target="_blank" rel="noopener">${t("receipt.open")} (PDF)</a>`
}

/** Approve and reject share the note field; each button posts to its own route. */
const decide = (ctx: PageContext, topup: AdminTopup): Html => {
  const { t } = ctx.tr
  const base = `/v2/admin/topups/${topup.topup_id}`
  const duplicateOf = topup.possible_duplicate_of
  const why =
    topup.possible_duplicate_reason === "same_file"
      ? t("admin.possibleDuplicateFile")
      : topup.possible_duplicate_reason === "near_amount"
        ? t("admin.possibleDuplicateNear")
        : t("admin.possibleDuplicate")
  const duplicate =
    duplicateOf === null
      ? ""
      : html`<p class="warn" data-duplicate-of="${duplicateOf}">${why} #${duplicateOf}</p>
<label class="check"><input type="checkbox" name="confirm_duplicate" value="true"> ${t("admin.confirmDuplicate")}</label>`
  // Two steps without script: the first click opens the decision and says what each button does.
  const credits = topup.method === "receipt" ? topup.amount_uzs : topup.payable_uzs
  return html`<details class="confirm decide-step"><summary class="btn btn-secondary">${t("admin.decide")}</summary>
<p class="hint">${t("admin.decideText", { amount: ctx.tr.uzs(credits) })}</p>
<form method="post" action="${base}/approve" class="decide">${formGuards(ctx, { idempotent: true })}${duplicate}
<label for="note-${topup.topup_id}">${t("admin.note")} <span class="hint">(${t("common.optional")})</span></label>
<input id="note-${topup.topup_id}" name="admin_note" maxlength="500">
<div class="buttons"><button type="submit" class="btn btn-primary">${t("admin.approve")}</button>
<button type="submit" class="btn btn-danger" formaction="${base}/reject">${t("admin.reject")}</button></div></form></details>`
}

const rows = (ctx: PageContext, topups: ReadonlyArray<AdminTopup>, actions: boolean) =>
  topups.map((tp) => ({
    attrs: html` data-topup-row="${tp.topup_id}"`,
    cells: [
      `#${tp.topup_id}`,
      userLink(ctx, tp.user_id),
      ctx.tr.t(tp.method === "receipt" ? "method.receipt" : "method.card"),
      // What reached the balance once credited (a bank payment or receipt may differ from the payable amount).
      tp.credited_uzs !== null
        ? html`${money(ctx.tr, tp.credited_uzs)}${tp.credited_uzs !== tp.payable_uzs ? html`<br><span class="hint">${ctx.tr.t("admin.payable")}: ${ctx.tr.uzs(tp.payable_uzs)}</span>` : ""}`
        : html`${money(ctx.tr, tp.payable_uzs)}${tp.amount_uzs !== tp.payable_uzs ? html`<br><span class="hint">${ctx.tr.t("admin.requested")}: ${ctx.tr.uzs(tp.amount_uzs)}</span>` : ""}`,
      html`${statusBadge(ctx.tr, "topup", tp.status)}${tp.admin_note ? html`<br><span class="hint">${tp.admin_note}</span>` : ""}`,
      time(tp.created_at),
      receipt(ctx, tp),
      ...(actions ? [decide(ctx, tp)] : [])
    ]
  }))

export const adminTopupsPage = (ctx: PageContext, data: AdminTopupsData): Html => {
  const { t } = ctx.tr
  const headers = [
    "#",
    t("common.user"),
    t("admin.method"),
    t("common.amount"),
    t("common.status"),
    t("common.date"),
    t("field.receipt")
  ]
  return layout(ctx, {
    title: t("admin.topupsTitle"),
    active: "topups",
    body: html`<h1>${t("admin.topupsTitle")}</h1>
${section("queue", t("admin.queue"), table({ id: "topup-queue", caption: t("admin.queue"), headers: [...headers, t("common.actions")], rows: rows(ctx, data.queue, true), empty: t("admin.nothingToDo") }))}
${section("history", t("admin.history"), table({ caption: t("admin.history"), headers, rows: rows(ctx, data.history, false), empty: t("common.none") }))}`
  })
}
