import { Context } from "effect"

/**
 * Per-account limits. Open caps bound what one account holds at once (an operator's queue, payable
 * amounts); daily caps bound what it writes per rolling 24 hours. Every default keeps one account's
 * footprint in the payable offset space (see `Topups.insertPending`) far below its 1,000 amounts.
 */
export interface AccountCapsShape {
  /** Card top-ups waiting for their transfer at once (`pending`). */
  readonly openCardTopups: number
  /** Top-ups waiting for an operator at once (`review`: receipts). */
  readonly openReviews: number
  /** Card top-ups created per 24 h. */
  readonly topupsPerDay: number
  /** Top-ups cancelled by their owner per 24 h. */
  readonly cancelsPerDay: number
  /** Receipt files uploaded per 24 h. */
  readonly uploadsPerDay: number
  /** Support tickets opened per 24 h. */
  readonly ticketsPerDay: number
  /** Push subscriptions (browsers) kept per account: a new one beyond it replaces the oldest. */
  readonly pushSubscriptions: number
}

/** The defaults of the `CAP_*` settings (`@resale/config`'s catalogue names them from here). */
export const DEFAULT_ACCOUNT_CAPS: AccountCapsShape = {
  openCardTopups: 3,
  openReviews: 3,
  topupsPerDay: 20,
  cancelsPerDay: 10,
  uploadsPerDay: 10,
  ticketsPerDay: 10,
  pushSubscriptions: 10
}

/** The window of every daily cap. */
export const CAP_WINDOW_MS = 24 * 60 * 60 * 1000

/** Account caps; the roots provide the configured ones (`@resale/config`: `CAP_*`), tests get the defaults. */
export const AccountCaps = Context.Reference<AccountCapsShape>("core/caps/AccountCaps", {
  defaultValue: () => DEFAULT_ACCOUNT_CAPS
})
