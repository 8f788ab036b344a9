import type { ReportPeriod } from "./ReportPeriods.ts"

/** TON the hot wallet paid for one kind of goods. */
export interface TonSpend {
  readonly paidNano: bigint
  readonly feeNano: bigint
  readonly units: number
  readonly purchases: number
}

/** Sales against TON cost at the operator's rate (stars and Premium: the goods bought with TON). */
export interface Margin {
  /** UZS shoppers paid for stars and Premium, less their refunds. */
  readonly salesUzs: number
  /** The TON paid for them, fees included, at the rate (rounded up: never flatter the margin). */
  readonly costUzs: number
  readonly marginUzs: number
}

/** The figures of one period (or of the whole report, for its total row). All UZS are so'm. */
export interface ReportRow {
  readonly start: string
  /** The period's last day, inclusive. */
  readonly last: string
  /** Credited top-ups by how they were confirmed: bank match, receipt (operator), admin API. */
  readonly received: {
    readonly bank: number
    readonly receipt: number
    readonly adminApi: number
    readonly total: number
  }
  /** What shoppers spent from their balances, by kind (`tier`: paid info-lookup tiers). */
  readonly spent: {
    readonly stars: number
    readonly premium: number
    readonly gift: number
    readonly tier: number
    readonly total: number
  }
  readonly refunds: { readonly stars: number; readonly premium: number; readonly gift: number; readonly total: number }
  /** Operators' balance corrections, signed. */
  readonly adjustments: number
  /** received - spent + refunds + adjustments: how much the balances moved. */
  readonly netChange: number
  /** The sum of user balances (the service's liability) when the period began and when it ended. */
  readonly outstandingStart: number
  readonly outstandingEnd: number
  readonly ton: { readonly stars: TonSpend; readonly premium: TonSpend; readonly totalNano: bigint }
  /** Average TON (fees included) per star bought, in nanoton; null without star purchases. */
  readonly nanoPerStar: bigint | null
  readonly margin: Margin | null
}

export interface Report {
  readonly period: ReportPeriod
  readonly from: string
  readonly to: string
  readonly timezone: "Asia/Tashkent"
  /** UZS per 1 TON as the operator entered it; null: no margin. */
  readonly tonRateUzs: number | null
  readonly rows: ReadonlyArray<ReportRow>
  readonly total: ReportRow
}
