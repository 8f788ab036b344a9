import { reportCsv, reportJson } from "@resale/core/reports/ReportFormats.ts"
import { tashkentDay } from "@resale/core/reports/ReportPeriods.ts"
import { Reports } from "@resale/core/reports/Reports.ts"
import { operatorReport, type ReportQueryText } from "@resale/wire/OperatorReports.ts"
import { Clock, Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { refusedAs422 } from "./QueryRefused.ts"

/** The operators' reports (`api/ReportsApi.ts`); the reports page draws the same report. */
export const ReportsHandlers = HttpApiBuilder.group(Api, "reports", (handlers) =>
  Effect.gen(function* () {
    const reports = yield* Reports
    const report = (query: ReportQueryText) =>
      Effect.gen(function* () {
        const today = tashkentDay(new Date(yield* Clock.currentTimeMillis))
        return yield* refusedAs422(operatorReport(reports, query, today))
      })
    return handlers
      .handle("reportData", ({ query }) => Effect.map(report(query), reportJson))
      .handle("reportCsv", ({ query }) =>
        Effect.map(report(query), (r) =>
          HttpServerResponse.text(reportCsv(r), {
            contentType: "text/csv; charset=utf-8",
            headers: { "content-disposition": `attachment; filename="report-${r.period}-${r.from}-${r.to}.csv"` }
          })
        )
      )
  })
)
