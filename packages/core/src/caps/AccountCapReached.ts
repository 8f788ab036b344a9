import { Schema } from "effect"

/**
 * Which cap an account ran into. `Open*` caps free up when an open item closes (HTTP 409); the
 * `*PerDay` caps free up as the rolling 24 hours move on (HTTP 429).
 */
export const AccountCapReason = Schema.Literals([
  "OpenCardTopups",
  "OpenReviews",
  "TopupsPerDay",
  "CancelsPerDay",
  "UploadsPerDay",
  "TicketsPerDay"
])
export type AccountCapReason = typeof AccountCapReason.Type

/** An account reached one of its caps (`AccountCaps`); nothing was written. */
export class AccountCapReached extends Schema.TaggedError<AccountCapReached>()("AccountCapReached", {
  reason: AccountCapReason,
  limit: Schema.Int,
  /** Daily caps: seconds until the oldest counted action leaves the 24 h window; null for open caps. */
  retryAfterSeconds: Schema.NullOr(Schema.Int)
}) {}
