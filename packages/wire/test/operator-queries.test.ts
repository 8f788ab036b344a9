import { assert, describe, it } from "@effect/vitest"
import type { PaymentFilter } from "@resale/core/ports/IncomingPayments.ts"
import type { Payments } from "@resale/core/payments/Payments.ts"
import type { Report } from "@resale/core/reports/Report.ts"
import { type ReportRequest, ReportRequestInvalid, type Reports } from "@resale/core/reports/Reports.ts"
import type { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect } from "effect"
import { paymentsList } from "../src/OperatorPayments.ts"
import { operatorReport } from "../src/OperatorReports.ts"

/** The bank payments' list over a store that only records the filter it was asked for (no payments). */
const listed = (query: Parameters<typeof paymentsList>[2]) => {
  const asked: Array<PaymentFilter> = []
  const payments = {
    list: (filter: PaymentFilter) => {
      asked.push(filter)
      return Effect.succeed({ total: 0, items: [] })
    },
    creditsOnReceipt: () => Effect.succeed([])
  } as unknown as Payments["Service"]
  return Effect.map(paymentsList(payments, {} as TopupService["Service"], query), () => {
    const { offset: _o, limit: _l, newestFirst: _n, ...filter } = asked[0]!
    return filter
  })
}

const PAGE = { offset: 0, limit: 50 }

/** The operators' report over a core that records the request, or refuses it as `refusal` says. */
const reported = (query: Parameters<typeof operatorReport>[1], refusal?: ReportRequestInvalid) => {
  const asked: Array<ReportRequest> = []
  const reports = {
    build: (request: ReportRequest) => {
      asked.push(request)
      return refusal === undefined ? Effect.succeed({} as Report) : Effect.fail(refusal)
    }
  } as Reports["Service"]
  return Effect.map(operatorReport(reports, query, "2026-03-18"), () => asked[0]!)
}

describe("the bank payments' filter", () => {
  it.effect("refuses every bad field at once, in FastAPI's records, the amount as read without spaces", () =>
    Effect.gen(function* () {
      const refused = yield* Effect.flip(
        listed({ ...PAGE, status: "paid", from: "2026-13-01", to: "soon", amount: "12 3a" })
      )
      assert.deepStrictEqual(refused.refused, [
        {
          type: "literal_error",
          loc: ["query", "status"],
          msg: "Input should be 'all', 'unresolved', 'assigned', 'received', 'matched', 'unmatched' or 'ambiguous'",
          input: "paid"
        },
        {
          type: "date_from_datetime_parsing",
          loc: ["query", "from"],
          msg: "Input should be a valid date",
          input: "2026-13-01"
        },
        {
          type: "date_from_datetime_parsing",
          loc: ["query", "to"],
          msg: "Input should be a valid date",
          input: "soon"
        },
        { type: "int_parsing", loc: ["query", "amount"], msg: "Input should be a valid integer", input: "123a" }
      ])
      const tooLong = yield* Effect.flip(listed({ ...PAGE, amount: "1,234,567,890,123" }))
      assert.deepStrictEqual(tooLong.refused, [
        {
          type: "int_parsing",
          loc: ["query", "amount"],
          msg: "Input should be a valid integer",
          input: "1234567890123"
        }
      ])
    })
  )

  it.effect("reads each status word, Tashkent days (the last one inclusive) and an amount with spaces", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* listed(PAGE), { status: ["unmatched", "ambiguous"] })
      assert.deepStrictEqual(yield* listed({ ...PAGE, status: "" }), { status: ["unmatched", "ambiguous"] })
      assert.deepStrictEqual(yield* listed({ ...PAGE, status: "unresolved" }), { status: ["unmatched", "ambiguous"] })
      assert.deepStrictEqual(yield* listed({ ...PAGE, status: "all" }), {})
      assert.deepStrictEqual(yield* listed({ ...PAGE, status: "assigned" }), { matchedBy: "operator" })
      assert.deepStrictEqual(yield* listed({ ...PAGE, status: "matched" }), { status: ["matched"] })
      assert.deepStrictEqual(
        yield* listed({ ...PAGE, status: "all", from: "2026-03-01", to: "2026-03-02", amount: " 1 000,000 " }),
        {
          from: new Date("2026-02-28T19:00:00.000Z"),
          to: new Date("2026-03-02T19:00:00.000Z"),
          amountUzs: 1_000_000
        }
      )
      // Empty fields (and an amount of only spaces) are no filter.
      assert.deepStrictEqual(yield* listed({ ...PAGE, status: "all", from: "", to: "", amount: " , " }), {})
    })
  )
})

describe("the operators' report form", () => {
  it.effect("refuses a period and a rate it cannot read, the rate as read without spaces", () =>
    Effect.gen(function* () {
      const refused = yield* Effect.flip(reported({ period: "year", ton_rate: "40 000 TON" }))
      assert.deepStrictEqual(refused.refused, [
        { type: "value_error", loc: ["query", "period"], msg: "Value error, one of day, week, month", input: "year" },
        {
          type: "value_error",
          loc: ["query", "ton_rate"],
          msg: "Value error, a whole number of UZS per TON",
          input: "40000TON"
        }
      ])
    })
  )

  it.effect("defaults the period to days, the range to this week to today; reads a rate with spaces", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* reported({}), {
        period: "day",
        from: "2026-03-16",
        to: "2026-03-18",
        tonRateUzs: null
      })
      assert.deepStrictEqual(yield* reported({ period: "month", from: "", to: "", ton_rate: "40,000" }), {
        period: "month",
        from: "2026-01-01",
        to: "2026-03-18",
        tonRateUzs: 40_000
      })
      assert.deepStrictEqual(yield* reported({ period: "week", from: "2026-02-01", to: "2026-02-28" }), {
        period: "week",
        from: "2026-02-01",
        to: "2026-02-28",
        tonRateUzs: null
      })
    })
  )

  it.effect("answers the core's refusal as a record of the field it names, echoing the field as sent", () =>
    Effect.gen(function* () {
      const backwards = yield* Effect.flip(
        reported(
          { from: "2026-03-02", to: "2026-03-01" },
          new ReportRequestInvalid({ field: "to", message: "to must not be before from" })
        )
      )
      assert.deepStrictEqual(backwards.refused, [
        {
          type: "value_error",
          loc: ["query", "to"],
          msg: "Value error, to must not be before from",
          input: "2026-03-01"
        }
      ])
      const rate = yield* Effect.flip(
        reported(
          { ton_rate: "2 000 000 000" },
          new ReportRequestInvalid({ field: "ton_rate", message: "the TON rate must be a whole number" })
        )
      )
      assert.deepStrictEqual(rate.refused, [
        {
          type: "value_error",
          loc: ["query", "ton_rate"],
          msg: "Value error, the TON rate must be a whole number",
          input: "2 000 000 000"
        }
      ])
    })
  )
})
