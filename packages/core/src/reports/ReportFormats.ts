import type { Report, ReportRow } from "./Report.ts"

/**
 * A report as the product writes it out: one flat snake_case record per row, the same columns for the
 * JSON answer, `resale report --json` and the CSV export. Nanoton are decimal strings (they outgrow
 * JSON numbers); UZS are whole so'm.
 */
export const REPORT_COLUMNS = [
  "period_start",
  "period_last",
  "received_bank_uzs",
  "received_receipt_uzs",
  "received_admin_api_uzs",
  "received_uzs",
  "spent_stars_uzs",
  "spent_premium_uzs",
  "spent_gift_uzs",
  "spent_tier_uzs",
  "spent_uzs",
  "refunds_stars_uzs",
  "refunds_premium_uzs",
  "refunds_gift_uzs",
  "refunds_uzs",
  "adjustments_uzs",
  "net_change_uzs",
  "outstanding_start_uzs",
  "outstanding_end_uzs",
  "ton_stars_paid_nano",
  "ton_stars_fee_nano",
  "stars_bought",
  "ton_premium_paid_nano",
  "ton_premium_fee_nano",
  "premium_months_bought",
  "ton_spent_nano",
  "nano_per_star",
  "sales_uzs",
  "ton_cost_uzs",
  "margin_uzs"
] as const
export type ReportColumn = (typeof REPORT_COLUMNS)[number]

export type ReportRecord = Record<ReportColumn, string | number | null>

export const reportRecord = (row: ReportRow): ReportRecord => ({
  period_start: row.start,
  period_last: row.last,
  received_bank_uzs: row.received.bank,
  received_receipt_uzs: row.received.receipt,
  received_admin_api_uzs: row.received.adminApi,
  received_uzs: row.received.total,
  spent_stars_uzs: row.spent.stars,
  spent_premium_uzs: row.spent.premium,
  spent_gift_uzs: row.spent.gift,
  spent_tier_uzs: row.spent.tier,
  spent_uzs: row.spent.total,
  refunds_stars_uzs: row.refunds.stars,
  refunds_premium_uzs: row.refunds.premium,
  refunds_gift_uzs: row.refunds.gift,
  refunds_uzs: row.refunds.total,
  adjustments_uzs: row.adjustments,
  net_change_uzs: row.netChange,
  outstanding_start_uzs: row.outstandingStart,
  outstanding_end_uzs: row.outstandingEnd,
  ton_stars_paid_nano: row.ton.stars.paidNano.toString(),
  ton_stars_fee_nano: row.ton.stars.feeNano.toString(),
  stars_bought: row.ton.stars.units,
  ton_premium_paid_nano: row.ton.premium.paidNano.toString(),
  ton_premium_fee_nano: row.ton.premium.feeNano.toString(),
  premium_months_bought: row.ton.premium.units,
  ton_spent_nano: row.ton.totalNano.toString(),
  nano_per_star: row.nanoPerStar === null ? null : row.nanoPerStar.toString(),
  sales_uzs: row.margin?.salesUzs ?? null,
  ton_cost_uzs: row.margin?.costUzs ?? null,
  margin_uzs: row.margin?.marginUzs ?? null
})

/** The whole report as JSON (snake_case, as every JSON the product emits). */
export const reportJson = (report: Report) => ({
  period: report.period,
  from: report.from,
  to: report.to,
  timezone: report.timezone,
  ton_rate_uzs: report.tonRateUzs,
  rows: report.rows.map(reportRecord),
  total: reportRecord(report.total)
})

/** RFC 4180 CSV: a header line, one line per period, then the total (`period_start` "total"). */
export const reportCsv = (report: Report): string => {
  const line = (values: ReadonlyArray<string | number | null>) =>
    values.map((v) => (v === null ? "" : String(v))).join(",")
  const total = { ...reportRecord(report.total), period_start: "total" }
  return (
    [
      REPORT_COLUMNS.join(","),
      ...[...report.rows.map(reportRecord), total].map((r) => line(REPORT_COLUMNS.map((c) => r[c])))
    ].join("\r\n") + "\r\n"
  )
}
