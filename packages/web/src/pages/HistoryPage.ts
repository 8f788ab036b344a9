import { type Html, html } from "../Html.ts"
import type { Translator } from "../i18n/Translate.ts"
import { pagination, table, time } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"
import type { HistoryEntry, HistoryPage } from "@resale/wire/Dtos.ts"

/** A movement with its sign: `+50 000 so‘m`, `−11 500 so‘m`. */
const signed = (tr: Translator, amount: number): Html =>
  html`<span class="money ${amount < 0 ? "debit" : "credit"}">${amount > 0 ? "+" : ""}${tr.uzs(amount)}</span>`

/** The number before the first `:` of a cause id (`12:retry:1` -> `12`). */
const head = (causeId: string) => causeId.split(":")[0] ?? causeId

/** What moved the money, in words: "Top-up #3", "Refund for order #7", "Correction by support". */
export const causeText = (tr: Translator, entry: HistoryEntry): string => {
  const id = head(entry.cause_id)
  return entry.cause === "topup"
    ? tr.t("history.topup", { id })
    : entry.cause === "order"
      ? tr.t("history.order", { id })
      : entry.cause === "refund"
        ? tr.t("history.refund", { id })
        : entry.cause === "tier"
          ? tr.t("history.tier", { tier: entry.cause_id.split(":")[1] ?? "" })
          : tr.t("history.adjust")
}

/** What moved the money, in words, linking to the order or top-up it belongs to. */
const what = (tr: Translator, entry: HistoryEntry): Html => {
  const { t } = tr
  const id = head(entry.cause_id)
  const label =
    entry.cause === "topup"
      ? html`<a href="/v2/dashboard#recent-topups">${t("history.topup", { id })}</a>`
      : entry.cause === "order"
        ? html`<a href="/v2/orders">${t("history.order", { id })}</a>`
        : entry.cause === "refund"
          ? html`<a href="/v2/orders">${t("history.refund", { id })}</a>`
          : entry.cause === "tier"
            ? html`${t("history.tier", { tier: entry.cause_id.split(":")[1] ?? "" })}`
            : html`${t("history.adjust")}`
  // An operator's correction or refund carries a reason written for the shopper; other notes are the
  // system's own English bookkeeping ("card payment") and stay out of the shopper's language.
  const note =
    entry.note !== null && entry.note !== "" && (entry.cause === "adjust" || entry.cause === "refund")
      ? html`<p class="reason">${t("history.reason", { reason: entry.note })}</p>`
      : ""
  return html`${label}${note}`
}

/** Every movement of the shopper's balance, newest first, a page at a time. */
export const historyPage = (ctx: PageContext, data: HistoryPage): Html => {
  const { t } = ctx.tr
  return layout(ctx, {
    title: t("history.title"),
    active: "history",
    body: html`<h1>${t("history.title")}</h1>
<p class="lead">${t("history.lead")}</p>
${table({
  id: "history-table",
  caption: t("history.title"),
  headers: [t("common.date"), t("history.what"), t("common.amount"), t("history.balanceAfter")],
  empty: t("history.empty"),
  rows: data.entries.map((entry) => ({
    attrs: html` data-entry-id="${entry.entry_id}" data-cause="${entry.cause}"`,
    cells: [
      time(entry.created_at),
      what(ctx.tr, entry),
      signed(ctx.tr, entry.amount_uzs),
      ctx.tr.uzs(entry.balance_after_uzs)
    ]
  }))
})}
${pagination(ctx.tr, "/v2/history", data.offset, data.limit, data.total)}`
  })
}
