import { Effect } from "effect"
import type { UserId } from "../ids.ts"
import { AccountActivity, type CappedAction } from "../ports/AccountActivity.ts"
import { addMillis } from "../Time.ts"
import { AccountCapReached, type AccountCapReason } from "./AccountCapReached.ts"
import { AccountCaps, type AccountCapsShape, CAP_WINDOW_MS } from "./CapSettings.ts"

const daily: Record<
  CappedAction,
  { readonly reason: AccountCapReason; readonly limit: (caps: AccountCapsShape) => number }
> = {
  "topup.create": { reason: "TopupsPerDay", limit: (c) => c.topupsPerDay },
  "topup.cancel": { reason: "CancelsPerDay", limit: (c) => c.cancelsPerDay },
  "receipt.upload": { reason: "UploadsPerDay", limit: (c) => c.uploadsPerDay },
  "ticket.create": { reason: "TicketsPerDay", limit: (c) => c.ticketsPerDay }
}

/**
 * Fails `AccountCapReached` when `userId` did `action` as many times as its daily cap allows within
 * the last 24 hours. Reads only: `takeDaily` is the check that counts.
 */
export const checkDaily = Effect.fn("AccountCaps.checkDaily")(function* (
  userId: UserId,
  action: CappedAction,
  now: Date
) {
  const activity = yield* AccountActivity
  const rule = daily[action]
  const limit = rule.limit(yield* AccountCaps)
  const { count, oldest } = yield* activity.countSince(userId, action, addMillis(now, -CAP_WINDOW_MS))
  if (count < limit) return
  const freeAt = oldest === null ? now.getTime() + CAP_WINDOW_MS : oldest.getTime() + CAP_WINDOW_MS
  return yield* new AccountCapReached({
    reason: rule.reason,
    limit,
    retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000))
  })
})

/**
 * Inside the transaction of the capped write: locks the account's capped writes, checks the daily
 * cap and records the action. A rolled-back write takes its record with it.
 */
export const takeDaily = Effect.fn("AccountCaps.takeDaily")(function* (
  userId: UserId,
  action: CappedAction,
  now: Date
) {
  const activity = yield* AccountActivity
  yield* activity.lock(userId)
  yield* checkDaily(userId, action, now)
  yield* activity.record(userId, action, now)
})

/** Fails `AccountCapReached` when an account already holds `held` open items of a kind capped at `limit`. */
export const checkOpen = (reason: "OpenCardTopups" | "OpenReviews", held: number) =>
  Effect.flatMap(AccountCaps, (caps) => {
    const limit = reason === "OpenCardTopups" ? caps.openCardTopups : caps.openReviews
    return held < limit ? Effect.void : Effect.fail(new AccountCapReached({ reason, limit, retryAfterSeconds: null }))
  })
