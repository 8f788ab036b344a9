import { Duration } from "effect"
import { addMillis } from "../Time.ts"
import { type Completion, completionOf, type FulfilmentOutcome } from "./FulfilmentOutcome.ts"
import type { Order } from "./Order.ts"
import { gaveUp } from "./OrderFailure.ts"
import { backoffMs } from "./OrderRules.ts"
import { type OrderWorkSettingsShape, unknownRetryDelayMs } from "./OrderWorkSettings.ts"

/**
 * What happens to a `processing` order after an attempt, decided from the outcome and the order's
 * counters alone (pure: the use cases read the order fresh in their transaction and apply the step):
 * - Complete: `completed` with its delivery.
 * - Refund: `failed` and its charge refunded once (a refusal, or a transient failure at the attempt limit).
 * - Retry: nothing was paid and it may work later: `queued` at `at`, attempts counted.
 * - HandBack: the wallet was busy: `queued` at `at`, nothing counted.
 * - Recheck: money may have left: `queued` at `at` to look at the same payment again, the check counted.
 * - Attention: still unknown past the limit (time AND checks), or no later check can tell:
 *   `needs_attention` for an operator. Money that may have left is never refunded here.
 */
export type NextStep =
  | { readonly _tag: "Complete"; readonly completion: Completion }
  | { readonly _tag: "Refund"; readonly error: string; readonly attempts?: number }
  | { readonly _tag: "Retry"; readonly attempts: number; readonly error: string; readonly at: Date }
  | { readonly _tag: "HandBack"; readonly at: Date }
  | { readonly _tag: "Recheck"; readonly checks: number; readonly since: Date; readonly at: Date }
  | { readonly _tag: "Attention"; readonly checks: number; readonly since: Date }

export type StepSettings = Pick<
  OrderWorkSettingsShape,
  "maxAttempts" | "retryBase" | "unknownRetryBase" | "unknownRetryMax" | "attentionAfter" | "attentionAttempts"
> & { readonly busyRetry: Duration.Duration }

type Counters = Pick<Order, "attempts" | "unknownSince" | "unknownAttempts">

/** Nothing paid, and it may work later: retried with a doubling backoff, refunded at the attempt limit. */
export const afterTransientFailure = (
  order: Pick<Order, "attempts">,
  error: string,
  settings: Pick<StepSettings, "maxAttempts" | "retryBase">,
  now: Date
): Extract<NextStep, { _tag: "Refund" | "Retry" }> => {
  const attempts = order.attempts + 1
  if (attempts >= settings.maxAttempts) return { _tag: "Refund", error: gaveUp(attempts, error), attempts }
  return {
    _tag: "Retry",
    attempts,
    error,
    at: addMillis(now, backoffMs(attempts, Duration.toMillis(settings.retryBase)))
  }
}

/** Money may have left: looked at again after a growing jittered delay, or handed to the operators. */
export const afterUnknown = (
  order: Pick<Order, "unknownSince" | "unknownAttempts">,
  attentionNow: boolean,
  settings: Pick<StepSettings, "unknownRetryBase" | "unknownRetryMax" | "attentionAfter" | "attentionAttempts">,
  now: Date,
  random: number
): Extract<NextStep, { _tag: "Recheck" | "Attention" }> => {
  const since = order.unknownSince ?? now
  const checks = order.unknownAttempts + 1
  const overdue =
    attentionNow ||
    (checks >= settings.attentionAttempts &&
      now.getTime() - since.getTime() >= Duration.toMillis(settings.attentionAfter))
  if (overdue) return { _tag: "Attention", checks, since }
  return { _tag: "Recheck", checks, since, at: addMillis(now, unknownRetryDelayMs(settings, checks, random)) }
}

/** A busy wallet frees up within seconds: look again soon, spread between workers by `random` in [0, 1). */
export const afterBusy = (
  settings: Pick<StepSettings, "busyRetry">,
  now: Date,
  random: number
): Extract<NextStep, { _tag: "HandBack" }> => ({
  _tag: "HandBack",
  at: addMillis(now, Math.round(Math.max(50, Duration.toMillis(settings.busyRetry)) * (1 + random)))
})

/** The step an outcome leads to for an order with these counters; `random` in [0, 1) spreads the delays. */
export const nextStep = (
  order: Counters,
  outcome: FulfilmentOutcome,
  settings: StepSettings,
  now: Date,
  random: number
): NextStep => {
  switch (outcome._tag) {
    case "Delivered":
      return { _tag: "Complete", completion: completionOf(outcome) }
    case "NotDelivered":
      return outcome.transient
        ? afterTransientFailure(order, outcome.error, settings, now)
        : { _tag: "Refund", error: outcome.error }
    case "Busy":
      return afterBusy(settings, now, random)
    case "Unknown":
      return afterUnknown(order, outcome.attentionNow === true, settings, now, random)
  }
}
