import { PaymentStatus } from "@resale/core/payments/IncomingPayment.ts"
import { isLocalDate, startOfTashkentDay, tashkentDay } from "@resale/core/reports/ReportPeriods.ts"
import { Schema, SchemaGetter, SchemaTransformation } from "effect"
import { formField, queryDecoder, withoutSeparators } from "./FormQuery.ts"
import { refusedAs } from "./SchemaRecords.ts"

/**
 * The bank payments' filter form (`GET /v2/admin/payments` and the payments page): `status`,
 * `from`/`to` (Tashkent days, both inclusive), `amount` (exact UZS, spaces and commas allowed),
 * decoded into the storage filter. pydantic's records: a status outside the list is its
 * `literal_error`, a day that is no calendar date `date_from_datetime_parsing`, an amount that is no
 * whole number (of at most 12 digits) `int_parsing`.
 */

/** Besides a payment's own status: `all`, `unresolved` (unmatched and ambiguous: what waits for an operator; the default), `assigned` (matched by an operator). */
const STATUS_WORDS = ["all", "unresolved", "assigned", ...PaymentStatus.literals] as const
const UNRESOLVED: ReadonlyArray<PaymentStatus> = ["unmatched", "ambiguous"]
const DAY_MS = 86_400_000

const quoted = STATUS_WORDS.map((word) => `'${word}'`)
const StatusWord = Schema.Literals(STATUS_WORDS).annotate(
  refusedAs("literal_error", `Input should be ${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`)
)

const TashkentDay = Schema.String.check(
  Schema.makeFilter(isLocalDate, refusedAs("date_from_datetime_parsing", "Input should be a valid date"))
)
/** The instant a day begins (`from`) and the one after it ends (`to`: the range is [from, to)). */
const DayStart = TashkentDay.pipe(
  Schema.decodeTo(Schema.Date, SchemaTransformation.transform({ decode: startOfTashkentDay, encode: tashkentDay }))
)
const DayEnd = TashkentDay.pipe(
  Schema.decodeTo(
    Schema.Date,
    SchemaTransformation.transform({
      decode: (day: string) => new Date(startOfTashkentDay(day).getTime() + DAY_MS),
      encode: (end: Date) => tashkentDay(new Date(end.getTime() - DAY_MS))
    })
  )
)

const AmountUzs = Schema.String.check(
  Schema.isPattern(/^\d{1,12}$/, refusedAs("int_parsing", "Input should be a valid integer"))
).pipe(Schema.decodeTo(Schema.Int, SchemaTransformation.transform({ decode: Number, encode: String })))

const PaymentsForm = Schema.Struct({
  status: formField(StatusWord),
  from: formField(DayStart),
  to: formField(DayEnd),
  amount: formField(AmountUzs, withoutSeparators)
})

/** What the payments store is asked for (core `PaymentFilter` without its paging). */
const PaymentsFilter = Schema.Struct({
  status: Schema.optionalKey(Schema.Array(PaymentStatus)),
  matchedBy: Schema.optionalKey(Schema.Literal("operator")),
  from: Schema.optionalKey(Schema.Date),
  to: Schema.optionalKey(Schema.Date),
  amountUzs: Schema.optionalKey(Schema.Int)
})

const filterOf = ({
  status = "unresolved",
  from,
  to,
  amount
}: typeof PaymentsForm.Type): typeof PaymentsFilter.Type => ({
  ...(status === "all"
    ? {}
    : status === "assigned"
      ? { matchedBy: "operator" as const }
      : { status: status === "unresolved" ? UNRESOLVED : [status] }),
  ...(from === undefined ? {} : { from }),
  ...(to === undefined ? {} : { to }),
  ...(amount === undefined ? {} : { amountUzs: amount })
})

/** The form's text in, the storage filter out (read only: no filter is written back as a form). */
export const PaymentsQuery = PaymentsForm.pipe(
  Schema.decodeTo(PaymentsFilter, {
    decode: SchemaGetter.transform(filterOf),
    encode: SchemaGetter.forbidden(() => "a payments filter is only read from its form")
  })
)

/** The storage filter of the form's text, or `QueryInvalid` with each refused field's record. */
export const paymentsFilter = queryDecoder(PaymentsQuery)

/** Payments in these statuses wait for an operator (they may list candidate top-ups). */
export const isUnresolved = (status: PaymentStatus) => UNRESOLVED.includes(status)
