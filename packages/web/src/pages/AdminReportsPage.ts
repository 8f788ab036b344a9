import type { ReportRecord } from "@resale/core/reports/ReportFormats.ts"
import { presetRange, REPORT_PRESETS } from "@resale/core/reports/ReportPeriods.ts"
import { type Html, html } from "../Html.ts"
import { field, money, section, select, submit, table } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"

/** The report as `/v2/admin/reports/data` answers it. */
export interface ReportData {
  readonly period: "day" | "week" | "month"
  readonly from: string
  readonly to: string
  readonly ton_rate_uzs: number | null
  readonly rows: ReadonlyArray<ReportRecord>
  readonly total: ReportRecord
}

/** What the operator asked for, to fill the form back in (also when the answer was a refusal). */
export interface ReportQuery {
  readonly period: string
  readonly from: string
  readonly to: string
  readonly tonRate: string
}

const n = (v: string | number | null): number => Number(v ?? 0)
/** Nanoton text as TON with four decimals (the CSV keeps every nanoton). */
const ton = (nano: string | number | null): Html =>
  html`<span class="nowrap">${(Number(nano ?? 0) / 1e9).toFixed(4)} TON</span>`

/** One tap to a range that fits a phone: this week by day, this and last month by week, this year by month. */
const presets = (ctx: PageContext, query: ReportQuery, today: string): Html => {
  const { t } = ctx.tr
  const links = REPORT_PRESETS.map((preset) => {
    const range = presetRange(preset, today)
    const href = `/v2/admin/reports?${new URLSearchParams({ period: range.period, from: range.from, to: range.to, ton_rate: query.tonRate })}`
    const current = range.period === query.period && range.from === query.from && range.to === query.to
    return html`<li><a class="btn btn-secondary" href="${href}" data-preset="${preset}"${current ? html` aria-current="true"` : ""}>${t(`reports.preset.${preset}`)}</a></li>`
  })
  return html`<nav class="report-presets" aria-label="${t("reports.presets")}"><ul class="plain">${links}</ul></nav>`
}

const form = (ctx: PageContext, query: ReportQuery): Html => {
  const { t } = ctx.tr
  const csv = `/v2/admin/reports.csv?${new URLSearchParams({ period: query.period, from: query.from, to: query.to, ton_rate: query.tonRate })}`
  return html`<form method="get" action="/v2/admin/reports" class="filters card" id="report-form">
${select({ name: "period", label: t("reports.groupBy"), options: (["day", "week", "month"] as const).map((p) => ({ value: p, label: t(`reports.${p}`), selected: query.period === p })) })}
${field({ name: "from", label: t("reports.from"), type: "date", value: query.from })}
${field({ name: "to", label: t("reports.to"), type: "date", value: query.to })}
${field({ name: "ton_rate", label: t("reports.rate"), value: query.tonRate, inputmode: "numeric", pattern: "[0-9 ,]*", hint: t("reports.rateHint") })}
${submit(t("reports.show"))} <a class="btn btn-secondary" id="report-csv" href="${csv}" download>${t("reports.csv")}</a></form>`
}

const summary = (ctx: PageContext, data: ReportData): Html => {
  const { t, uzs } = ctx.tr
  const r = data.total
  const line = (label: string, value: Html | string, attr: string) =>
    html`<dt>${label}</dt><dd data-figure="${attr}">${value}</dd>`
  const margin =
    r.margin_uzs === null
      ? html`<p class="hint">${t("reports.noRate")}</p>`
      : html`<p><strong data-figure="margin">${money(ctx.tr, n(r.margin_uzs))}</strong></p><p class="hint">${t(
          "reports.marginText",
          { sales: `uzs:${n(r.sales_uzs)}`, cost: `uzs:${n(r.ton_cost_uzs)}`, rate: `uzs:${n(data.ton_rate_uzs)}` }
        )}</p>`
  return html`<div class="report-cards">
<div class="card"><h3>${t("reports.received")}</h3><p><strong data-figure="received">${money(ctx.tr, n(r.received_uzs))}</strong></p><dl class="figures">
${line(t("reports.bank"), uzs(n(r.received_bank_uzs)), "received-bank")}${line(t("reports.receipt"), uzs(n(r.received_receipt_uzs)), "received-receipt")}${line(
  t("reports.adminApi"),
  uzs(n(r.received_admin_api_uzs)),
  "received-admin-api"
)}</dl></div>
<div class="card"><h3>${t("reports.spent")}</h3><p><strong data-figure="spent">${money(ctx.tr, n(r.spent_uzs))}</strong></p><dl class="figures">
${line(t("kind.stars"), uzs(n(r.spent_stars_uzs)), "spent-stars")}${line(t("kind.premium"), uzs(n(r.spent_premium_uzs)), "spent-premium")}${line(
  t("kind.gift"),
  uzs(n(r.spent_gift_uzs)),
  "spent-gift"
)}${line(t("reports.tier"), uzs(n(r.spent_tier_uzs)), "spent-tier")}</dl></div>
<div class="card"><h3>${t("reports.owed")}</h3><p><strong data-figure="owed-end">${money(ctx.tr, n(r.outstanding_end_uzs))}</strong></p><dl class="figures">
${line(t("reports.refunds"), uzs(n(r.refunds_uzs)), "refunds")}${line(t("reports.adjustments"), uzs(n(r.adjustments_uzs)), "adjustments")}</dl>
<p class="hint">${t("reports.owedText", { start: `uzs:${n(r.outstanding_start_uzs)}`, end: `uzs:${n(r.outstanding_end_uzs)}` })}</p>
<p class="hint" data-figure="check">${t("reports.check", { net: `uzs:${n(r.net_change_uzs)}` })}</p></div>
<div class="card"><h3>${t("reports.ton")}</h3><p><strong data-figure="ton">${ton(r.ton_spent_nano)}</strong></p><dl class="figures">
${line(t("kind.stars"), html`${ton(n(r.ton_stars_paid_nano) + n(r.ton_stars_fee_nano))} · ${t("order.stars", { n: n(r.stars_bought) })}`, "ton-stars")}${line(
  t("kind.premium"),
  html`${ton(n(r.ton_premium_paid_nano) + n(r.ton_premium_fee_nano))} · ${t("reports.months", { n: n(r.premium_months_bought) })}`,
  "ton-premium"
)}${line(t("reports.tonFees"), ton(n(r.ton_stars_fee_nano) + n(r.ton_premium_fee_nano)), "ton-fees")}${line(
  t("reports.perStar"),
  r.nano_per_star === null ? "—" : ton(r.nano_per_star),
  "per-star"
)}</dl><p class="hint">${t("reports.giftNote")}</p></div>
<div class="card"><h3>${t("reports.margin")}</h3>${margin}</div></div>`
}

const periodLabel = (data: ReportData, r: ReportRecord): string =>
  data.period === "day"
    ? String(r.period_start)
    : data.period === "month"
      ? String(r.period_start).slice(0, 7)
      : `${r.period_start} – ${r.period_last}`

const rows = (ctx: PageContext, data: ReportData): Html => {
  const { t } = ctx.tr
  return table({
    id: "report-table",
    caption: t("reports.byPeriod"),
    headers: [
      t("reports.period"),
      t("reports.received"),
      t("reports.spent"),
      t("reports.refunds"),
      t("reports.adjustments"),
      t("reports.owedEnd"),
      t("reports.tonCol"),
      t("reports.margin")
    ],
    empty: t("common.none"),
    rows: [...data.rows, data.total].map((r, i) => ({
      attrs:
        i === data.rows.length
          ? html` class="total-row" data-period="total"`
          : html` data-period="${String(r.period_start)}"`,
      cells: [
        i === data.rows.length
          ? html`<strong>${t("reports.total")}</strong>`
          : html`<span class="nowrap">${periodLabel(data, r)}</span>`,
        money(ctx.tr, n(r.received_uzs)),
        money(ctx.tr, n(r.spent_uzs)),
        money(ctx.tr, n(r.refunds_uzs)),
        money(ctx.tr, n(r.adjustments_uzs)),
        money(ctx.tr, n(r.outstanding_end_uzs)),
        ton(r.ton_spent_nano),
        r.margin_uzs === null ? "—" : money(ctx.tr, n(r.margin_uzs))
      ]
    }))
  })
}

/** The page; `today` is the Tashkent day, for the presets. */
export const adminReportsPage = (
  ctx: PageContext,
  query: ReportQuery,
  data: ReportData | undefined,
  today: string
): Html => {
  const { t } = ctx.tr
  return layout(ctx, {
    title: t("reports.title"),
    active: "reports",
    body: html`<h1>${t("reports.title")}</h1>
<p class="lead">${t("reports.lead")}</p>
${data === undefined ? html`<div class="flash flash-error" role="alert" id="report-error" tabindex="-1"><p>${t("reports.invalid")}</p></div>` : ""}
${presets(ctx, query, today)}
${form(ctx, query)}
${
  data === undefined
    ? ""
    : html`${section("report-summary", t("reports.summary"), summary(ctx, data))}
${section("report-periods", t("reports.byPeriod"), rows(ctx, data))}`
}`
  })
}
