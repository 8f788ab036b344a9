import { Context, type Effect } from "effect"
import type { LedgerCause } from "../ledger/LedgerEntry.ts"
import type { Nanoton } from "../money/Nanoton.ts"
import type { ReportPeriod } from "../reports/ReportPeriods.ts"

/** The instants a report covers, `start` inclusive, `end` exclusive, cut into Tashkent periods. */
export interface ReportWindow {
  readonly period: ReportPeriod
  readonly start: Date
  readonly end: Date
}

/**
 * The ledger's entries of one period summed by why money moved. `detail` says more where the cause
 * has kinds: how a top-up was credited (`payment` with a bank payment, matched or assigned by an
 * operator; `operator` on a receipt; `admin_api`), an order's or refund's kind (`stars`, `premium`, `gift`); null otherwise.
 */
export interface LedgerFigure {
  /** The period's first Tashkent day, "YYYY-MM-DD". */
  readonly period: string
  readonly cause: LedgerCause
  readonly detail: string | null
  /** Signed sum of the entries' amounts. */
  readonly amountUzs: number
  readonly entries: number
}

/** The TON the service's hot wallet paid for account orders in one period, by kind. */
export interface TonFigure {
  readonly period: string
  readonly kind: "stars" | "premium"
  /** Paid to the marketplace. */
  readonly paidNano: Nanoton
  /** Network fees of those transactions. */
  readonly feeNano: Nanoton
  /** Stars bought, or months of Premium. */
  readonly units: number
  readonly purchases: number
}

/** Read-only sums for operators' reports; the adapter aggregates where the data lives. */
export class ReportFigures extends Context.Service<
  ReportFigures,
  {
    readonly ledger: (window: ReportWindow) => Effect.Effect<ReadonlyArray<LedgerFigure>>
    readonly ton: (window: ReportWindow) => Effect.Effect<ReadonlyArray<TonFigure>>
    /** The sum of every ledger entry made before `instant`: what the service owed its users then. */
    readonly outstandingAt: (instant: Date) => Effect.Effect<number>
  }
>()("core/ports/ReportFigures") {}
