import { Config, Context, Layer, Schema } from "effect"

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

// A cap is a whole number from 1 to 1,000 (0 would lock every account out of the action).
const Cap = Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 1000 }))
const positive = (name: string, fallback: number) => Config.schema(Cap, name).pipe(Config.withDefault(fallback))

/** The caps from the environment (`CAP_*`, see the core README), each falling back to its default. */
export const accountCapsConfig: Config.Config<AccountCapsShape> = Config.all({
  openCardTopups: positive("CAP_OPEN_TOPUPS", DEFAULT_ACCOUNT_CAPS.openCardTopups),
  openReviews: positive("CAP_OPEN_REVIEWS", DEFAULT_ACCOUNT_CAPS.openReviews),
  topupsPerDay: positive("CAP_TOPUPS_PER_DAY", DEFAULT_ACCOUNT_CAPS.topupsPerDay),
  cancelsPerDay: positive("CAP_CANCELS_PER_DAY", DEFAULT_ACCOUNT_CAPS.cancelsPerDay),
  uploadsPerDay: positive("CAP_UPLOADS_PER_DAY", DEFAULT_ACCOUNT_CAPS.uploadsPerDay),
  ticketsPerDay: positive("CAP_TICKETS_PER_DAY", DEFAULT_ACCOUNT_CAPS.ticketsPerDay),
  pushSubscriptions: positive("CAP_PUSH_SUBSCRIPTIONS", DEFAULT_ACCOUNT_CAPS.pushSubscriptions)
})

/** Account caps; defaults above, `accountCapsLayerConfig` reads them from the environment. */
export const AccountCaps = Context.Reference<AccountCapsShape>("core/caps/AccountCaps", {
  defaultValue: () => DEFAULT_ACCOUNT_CAPS
})

/** `AccountCaps` from the environment, for the composition roots. */
export const accountCapsLayerConfig = Layer.effect(AccountCaps, accountCapsConfig)
