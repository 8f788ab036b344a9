import { reportCsv, reportJson } from "@resale/core/reports/ReportFormats.ts"
import { defaultRange, REPORT_PERIODS, type ReportPeriod, tashkentDay } from "@resale/core/reports/ReportPeriods.ts"
import { type ReportRequest, Reports } from "@resale/core/reports/Reports.ts"
import { Clock, Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { json, operatorOnly as operatorOnlyWith, validationFailed, type ValidationItem } from "./RouteKit.ts"

/**
 * Operators' reports (the core's `Reports`), for the panel page and its CSV export:
 *
 *   GET /v2/admin/reports/data?period=day|week|month&from=YYYY-MM-DD&to=YYYY-MM-DD&ton_rate=
 *       -> { period, from, to, timezone, ton_rate_uzs, rows: [record], total: record }
 *   GET /v2/admin/reports.csv?(the same)  -> text/csv, one line per period and the total
 *
 * `to` defaults to today (Tashkent) and `from` to the start of this week (by day), this month (by week)
 * or this year (by month): short enough for a phone; `ton_rate` (UZS per TON) is optional.
 */
export const REPORT_ROUTES = [
  { method: "GET", path: "/v2/admin/reports/data" },
  { method: "GET", path: "/v2/admin/reports.csv" }
] as const

const invalid = (name: string, input: string, msg: string): ValidationItem => ({
  type: "value_error",
  loc: ["query", name],
  msg: `Value error, ${msg}`,
  input
})

/** The request from the query, or the 422 items saying what is wrong with it. */
export const reportRequestOf = (
  query: URLSearchParams,
  today: string
): ReportRequest | ReadonlyArray<ValidationItem> => {
  const errors: Array<ValidationItem> = []
  const period = query.get("period") || "day"
  if (!(REPORT_PERIODS as ReadonlyArray<string>).includes(period))
    errors.push(invalid("period", period, "one of day, week, month"))
  const rate = (query.get("ton_rate") ?? "").replace(/[\s,]/g, "")
  if (rate !== "" && !/^\d{1,10}$/.test(rate)) errors.push(invalid("ton_rate", rate, "a whole number of UZS per TON"))
  if (errors.length > 0) return errors
  const range = defaultRange(period as ReportPeriod, today)
  return {
    period: period as ReportPeriod,
    from: query.get("from") || range.from,
    to: query.get("to") || today,
    tonRateUzs: rate === "" ? null : Number(rate)
  }
}

export const ReportRoutes = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const sessions = yield* WebSessions
    const config = yield* HttpConfig
    const reports = yield* Reports
    const operatorOnly = operatorOnlyWith(sessions, config.publicUrl)

    const answer = (
      respond: (report: Effect.Success<ReturnType<typeof reports.build>>) => HttpServerResponse.HttpServerResponse
    ) =>
      Effect.gen(function* () {
        const query = new URL((yield* HttpServerRequest.HttpServerRequest).url, "http://localhost").searchParams
        const request = reportRequestOf(query, tashkentDay(new Date(yield* Clock.currentTimeMillis)))
        if (Array.isArray(request)) return validationFailed(request)
        return yield* reports.build(request as ReportRequest).pipe(
          Effect.map(respond),
          Effect.catchTag("ReportRequestInvalid", (e) =>
            Effect.succeed(validationFailed([invalid(e.field, String(query.get(e.field) ?? ""), e.message)]))
          )
        )
      })

    yield* router.add("GET", "/v2/admin/reports/data", operatorOnly(answer((report) => json(reportJson(report)))))
    yield* router.add(
      "GET",
      "/v2/admin/reports.csv",
      operatorOnly(
        answer((report) =>
          HttpServerResponse.text(reportCsv(report), {
            contentType: "text/csv; charset=utf-8",
            headers: {
              "content-disposition": `attachment; filename="report-${report.period}-${report.from}-${report.to}.csv"`
            }
          })
        )
      )
    )
  })
)
