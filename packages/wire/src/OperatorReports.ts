import { defaultRange, REPORT_PERIODS, type ReportPeriod } from "@resale/core/reports/ReportPeriods.ts"
import type { ReportRequest, Reports } from "@resale/core/reports/Reports.ts"
import { Effect } from "effect"
import { type QueryFieldRefused, QueryInvalid } from "./QueryInvalid.ts"

/** The report form's fields as sent (text; empty means "the default"). */
export interface ReportQueryText {
  readonly period?: string | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly ton_rate?: string | undefined
}

const refused = (name: string, input: string, msg: string): QueryFieldRefused => ({
  type: "value_error",
  loc: ["query", name],
  msg: `Value error, ${msg}`,
  input
})

/**
 * The operators' report (core `Reports`) from the form's text, for the panel's JSON route, its CSV
 * export and its page: `to` defaults to today (Tashkent) and `from` to the start of this week (by
 * day), this month (by week) or this year (by month); `ton_rate` (UZS per TON) is optional.
 */
export const operatorReport = (reports: Reports["Service"], query: ReportQueryText, today: string) =>
  Effect.gen(function* () {
    const period = query.period || "day"
    const rate = (query.ton_rate ?? "").replace(/[\s,]/g, "")
    const errors: Array<QueryFieldRefused> = []
    if (!(REPORT_PERIODS as ReadonlyArray<string>).includes(period))
      errors.push(refused("period", period, "one of day, week, month"))
    if (rate !== "" && !/^\d{1,10}$/.test(rate)) errors.push(refused("ton_rate", rate, "a whole number of UZS per TON"))
    if (errors.length > 0) return yield* new QueryInvalid({ refused: errors })
    const request: ReportRequest = {
      period: period as ReportPeriod,
      from: query.from || defaultRange(period as ReportPeriod, today).from,
      to: query.to || today,
      tonRateUzs: rate === "" ? null : Number(rate)
    }
    return yield* reports
      .build(request)
      .pipe(
        Effect.catchTag("ReportRequestInvalid", (e) =>
          Effect.fail(new QueryInvalid({ refused: [refused(e.field, String(query[e.field] ?? ""), e.message)] }))
        )
      )
  })
