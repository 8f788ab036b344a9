import { defaultRange } from "@resale/core/reports/ReportPeriods.ts"
import type { Reports } from "@resale/core/reports/Reports.ts"
import { Effect } from "effect"
import { QueryInvalid } from "./QueryInvalid.ts"
import { reportForm } from "./ReportQuery.ts"

/** The report form's fields as sent (text; empty means "the default"): `ReportQuery`. */
export interface ReportQueryText {
  readonly period?: string | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly ton_rate?: string | undefined
}

/**
 * The operators' report (core `Reports`) from the form's text, for the panel's JSON route, its CSV
 * export and its page: `to` defaults to today (Tashkent) and `from` to the start of this week (by
 * day), this month (by week) or this year (by month); `ton_rate` (UZS per TON) is optional. What the
 * core refuses (dates, their order, a rate out of range) is the record of the field it names, echoing
 * that field as sent.
 */
export const operatorReport = (reports: Reports["Service"], query: ReportQueryText, today: string) =>
  Effect.gen(function* () {
    const {
      period = "day",
      from,
      to,
      ton_rate
    } = yield* reportForm({
      period: query.period,
      from: query.from,
      to: query.to,
      ton_rate: query.ton_rate
    })
    return yield* reports
      .build({
        period,
        from: from ?? defaultRange(period, today).from,
        to: to ?? today,
        tonRateUzs: ton_rate ?? null
      })
      .pipe(
        Effect.catchTag("ReportRequestInvalid", (e) =>
          Effect.fail(
            new QueryInvalid({
              refused: [
                {
                  type: "value_error",
                  loc: ["query", e.field],
                  msg: `Value error, ${e.message}`,
                  input: String(query[e.field] ?? "")
                }
              ]
            })
          )
        )
      )
  })
