import { REPORT_PERIODS } from "@resale/core/reports/ReportPeriods.ts"
import { Schema, SchemaTransformation } from "effect"
import { formField, queryDecoder, withoutSeparators } from "./FormQuery.ts"
import { refusedAs } from "./SchemaRecords.ts"

/**
 * The operators' report form (`GET /v2/admin/reports/data`, `/v2/admin/reports.csv` and the reports
 * page): `period` (day, week or month; days when not given), `from`/`to` (Tashkent days, the core
 * checks them), `ton_rate` (UZS per TON, spaces and commas allowed). A period or rate it cannot read
 * is pydantic's validator `value_error` with the words below; what is not given stays absent for the
 * report to default (`operatorReport`: the range depends on today).
 */
const Period = Schema.Literals(REPORT_PERIODS).annotate(
  refusedAs("value_error", "Value error, one of day, week, month")
)

const TonRateUzs = Schema.String.check(
  Schema.isPattern(/^\d{1,10}$/, refusedAs("value_error", "Value error, a whole number of UZS per TON"))
).pipe(Schema.decodeTo(Schema.Int, SchemaTransformation.transform({ decode: Number, encode: String })))

export const ReportQuery = Schema.Struct({
  period: formField(Period),
  from: formField(Schema.String),
  to: formField(Schema.String),
  ton_rate: formField(TonRateUzs, withoutSeparators)
})

/** The report form read, or `QueryInvalid` with each refused field's record. */
export const reportForm = queryDecoder(ReportQuery)
