import { REPORT_COLUMNS } from "@resale/core/reports/ReportFormats.ts"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { HTTPValidationError } from "./Errors.ts"
import { OptionalStr } from "@resale/webkit/Fields.ts"
import { OperatorSession } from "./Middleware.ts"

/** The form's fields are text checked after sign-in (a bad date or rate is a 422 for the operator only). */
const query = { period: OptionalStr, from: OptionalStr, to: OptionalStr, ton_rate: OptionalStr }

const Cell = Schema.NullOr(Schema.Union([Schema.String, Schema.Number]))
const ReportRecord = Schema.Struct(Object.fromEntries(REPORT_COLUMNS.map((column) => [column, Cell])))

const ReportData = Schema.Struct({
  period: Schema.Literals(["day", "week", "month"]),
  from: Schema.String,
  to: Schema.String,
  timezone: Schema.String,
  ton_rate_uzs: Schema.NullOr(Schema.Number),
  rows: Schema.Array(ReportRecord),
  total: ReportRecord
})

/**
 * Operators' reports (core `Reports`) for the panel page and its CSV export, outside the served document:
 *
 *   GET /v2/admin/reports/data?period=day|week|month&from=YYYY-MM-DD&to=YYYY-MM-DD&ton_rate=
 *       -> { period, from, to, timezone, ton_rate_uzs, rows: [record], total: record }
 *   GET /v2/admin/reports.csv?(the same)  -> text/csv, one line per period and the total
 */
export class ReportsApi extends HttpApiGroup.make("reports")
  .add(
    HttpApiEndpoint.get("reportData", "/v2/admin/reports/data", {
      query,
      success: ReportData,
      error: HTTPValidationError
    }),
    HttpApiEndpoint.get("reportCsv", "/v2/admin/reports.csv", {
      query,
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })),
      error: HTTPValidationError
    })
  )
  .middleware(OperatorSession)
  .annotate(OpenApi.Exclude, true) {}

/** Method and path of each report route, for the tests that walk the panel's routes. */
export const REPORT_ROUTES = Object.values(ReportsApi.endpoints).map((e) => ({ method: e.method, path: e.path }))
