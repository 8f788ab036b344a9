import { Context, Effect, Layer, Schema } from "effect"
import { type LedgerFigure, ReportFigures, type TonFigure } from "../ports/ReportFigures.ts"
import type { Report, ReportRow, TonSpend } from "./Report.ts"
import { isLocalDate, nextPeriodStart, periodSpans, type ReportPeriod, startOfTashkentDay } from "./ReportPeriods.ts"

/** Most rows one report may have (a year of days, a few years of weeks or months). */
export const MAX_REPORT_ROWS = 400

export class ReportRequestInvalid extends Schema.TaggedError<ReportRequestInvalid>()("ReportRequestInvalid", {
  field: Schema.Literals(["from", "to", "ton_rate"]),
  message: Schema.String
}) {}

export interface ReportRequest {
  readonly period: ReportPeriod
  /** First and last Tashkent day, "YYYY-MM-DD", inclusive. */
  readonly from: string
  readonly to: string
  /** UZS per 1 TON, a positive whole number, or null for no margin. */
  readonly tonRateUzs: number | null
}

const NO_TON: TonSpend = { paidNano: 0n, feeNano: 0n, units: 0, purchases: 0 }
const addTon = (a: TonSpend, b: TonSpend): TonSpend => ({
  paidNano: a.paidNano + b.paidNano,
  feeNano: a.feeNano + b.feeNano,
  units: a.units + b.units,
  purchases: a.purchases + b.purchases
})
const costOf = (t: TonSpend) => t.paidNano + t.feeNano

/** One row from the ledger's and the wallet's sums of its periods; `opening` is the liability before it. */
const rowOf = (
  span: { readonly start: string; readonly last: string },
  ledger: ReadonlyArray<LedgerFigure>,
  ton: ReadonlyArray<TonFigure>,
  opening: number,
  rate: number | null
): ReportRow => {
  const sum = (cause: LedgerFigure["cause"], detail?: string) =>
    ledger
      .filter((f) => f.cause === cause && (detail === undefined || f.detail === detail))
      .reduce((n, f) => n + f.amountUzs, 0)
  const received = {
    bank: sum("topup", "payment"),
    receipt: sum("topup", "operator"),
    adminApi: sum("topup", "admin_api"),
    total: sum("topup")
  }
  const spent = {
    stars: -sum("order", "stars"),
    premium: -sum("order", "premium"),
    gift: -sum("order", "gift"),
    tier: -sum("tier"),
    total: -sum("order") - sum("tier")
  }
  const refunds = {
    stars: sum("refund", "stars"),
    premium: sum("refund", "premium"),
    gift: sum("refund", "gift"),
    total: sum("refund")
  }
  const adjustments = sum("adjust")
  const netChange = ledger.reduce((n, f) => n + f.amountUzs, 0)
  const tonOf = (kind: TonFigure["kind"]) => ton.filter((t) => t.kind === kind).reduce<TonSpend>(addTon, NO_TON)
  const stars = tonOf("stars")
  const premium = tonOf("premium")
  const totalNano = costOf(stars) + costOf(premium)
  const salesUzs = spent.stars - refunds.stars + spent.premium - refunds.premium
  // Rounded up to the so'm: a cost is never understated.
  const costUzs = rate === null ? 0 : Number((totalNano * BigInt(rate) + 999_999_999n) / 1_000_000_000n)
  return {
    start: span.start,
    last: span.last,
    received,
    spent,
    refunds,
    adjustments,
    netChange,
    outstandingStart: opening,
    outstandingEnd: opening + netChange,
    ton: { stars, premium, totalNano },
    nanoPerStar: stars.units === 0 ? null : costOf(stars) / BigInt(stars.units),
    margin: rate === null ? null : { salesUzs, costUzs, marginUzs: salesUzs - costUzs }
  }
}

const checked = (request: ReportRequest) =>
  Effect.gen(function* () {
    if (!isLocalDate(request.from))
      return yield* new ReportRequestInvalid({ field: "from", message: "from must be a date, YYYY-MM-DD" })
    if (!isLocalDate(request.to))
      return yield* new ReportRequestInvalid({ field: "to", message: "to must be a date, YYYY-MM-DD" })
    if (request.to < request.from)
      return yield* new ReportRequestInvalid({ field: "to", message: "to must not be before from" })
    const rate = request.tonRateUzs
    if (rate !== null && (!Number.isSafeInteger(rate) || rate <= 0 || rate > 1e9)) {
      return yield* new ReportRequestInvalid({
        field: "ton_rate",
        message: "the TON rate must be a whole number of UZS per TON, 1 to 1,000,000,000"
      })
    }
    const spans = periodSpans(request.period, request.from, request.to)
    if (spans.length > MAX_REPORT_ROWS) {
      return yield* new ReportRequestInvalid({
        field: "to",
        message: `at most ${MAX_REPORT_ROWS} ${request.period}s in one report`
      })
    }
    return spans
  })

/**
 * Operators' figures per day, week or month (Tashkent time): money received by how it came, spent by
 * kind, refunds, corrections, the users' balances owed at each period's edges, the TON paid for the
 * goods with fees, and the margin at a rate the operator gives. Every UZS figure is a sum of ledger
 * entries, so a row always reconciles: outstandingEnd = outstandingStart + received - spent + refunds + adjustments.
 */
export class Reports extends Context.Service<
  Reports,
  {
    readonly build: (request: ReportRequest) => Effect.Effect<Report, ReportRequestInvalid>
  }
>()("core/reports/Reports") {
  static readonly layer = Layer.effect(
    Reports,
    Effect.gen(function* () {
      const figures = yield* ReportFigures
      const build = Effect.fn("Reports.build")(function* (request: ReportRequest) {
        const spans = yield* checked(request)
        const window = {
          period: request.period,
          start: startOfTashkentDay(spans[0]!.start),
          end: startOfTashkentDay(nextPeriodStart(request.period, spans[spans.length - 1]!.start))
        }
        const [ledger, ton, opening] = yield* Effect.all([
          figures.ledger(window),
          figures.ton(window),
          figures.outstandingAt(window.start)
        ])
        const rows: Array<ReportRow> = []
        let liability = opening
        for (const span of spans) {
          const row = rowOf(
            span,
            ledger.filter((f) => f.period === span.start),
            ton.filter((t) => t.period === span.start),
            liability,
            request.tonRateUzs
          )
          rows.push(row)
          liability = row.outstandingEnd
        }
        const whole = { start: spans[0]!.start, last: spans[spans.length - 1]!.last }
        return {
          period: request.period,
          from: request.from,
          to: request.to,
          timezone: "Asia/Tashkent" as const,
          tonRateUzs: request.tonRateUzs,
          rows,
          total: rowOf(whole, ledger, ton, opening, request.tonRateUzs)
        }
      })
      return Reports.of({ build })
    })
  )
}
