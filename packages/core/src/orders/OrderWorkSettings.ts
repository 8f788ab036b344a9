import { Context, Duration } from "effect"
import { BACKOFF_BASE_MS, MAX_ATTEMPTS } from "./OrderRules.ts"

/**
 * How the worker's order lifecycle is timed (the worker fills these from its config; the defaults
 * are the documented ones of `WorkerConfig`).
 */
export interface OrderWorkSettingsShape {
  /** A `processing` order untouched this long belonged to a worker that stopped: back to the queue. */
  readonly lease: Duration.Duration
  /** First delay after an unknown outcome; it doubles with every further unknown check. */
  readonly unknownRetryBase: Duration.Duration
  /** The delay between two checks of an unknown outcome never grows past this. */
  readonly unknownRetryMax: Duration.Duration
  /**
   * An order leaves the retries for the operators' queue once its outcome has been unknown for at
   * least `attentionAfter` AND checked at least `attentionAttempts` times (both: a worker that was
   * down for an hour still checks a few times, and fast checks never flag an order within seconds).
   */
  readonly attentionAfter: Duration.Duration
  readonly attentionAttempts: number
  /** First delay after an attempt that paid nothing and may succeed later; it doubles (at most an hour). */
  readonly retryBase: Duration.Duration
  /** Attempts before such an order fails for good and is refunded. */
  readonly maxAttempts: number
  /** About the wait before an order handed back by a busy wallet is claimed again (spread up to twice it). */
  readonly busyRetry: Duration.Duration
}

export const OrderWorkSettings = Context.Reference<OrderWorkSettingsShape>("core/orders/OrderWorkSettings", {
  defaultValue: () => ({
    lease: Duration.seconds(60),
    unknownRetryBase: Duration.seconds(30),
    unknownRetryMax: Duration.minutes(10),
    attentionAfter: Duration.minutes(30),
    attentionAttempts: 8,
    retryBase: Duration.millis(BACKOFF_BASE_MS),
    maxAttempts: MAX_ATTEMPTS,
    busyRetry: Duration.seconds(1)
  })
})

/**
 * Delay before check `attempt + 1` of an unknown outcome: `base * 2^(attempt-1)` capped at `max`,
 * of which a random half is taken off ("equal jitter": workers that met the same outage spread out,
 * and the delay never falls under half the step). `random` is in [0, 1).
 */
export const unknownRetryDelayMs = (
  settings: Pick<OrderWorkSettingsShape, "unknownRetryBase" | "unknownRetryMax">,
  attempt: number,
  random: number
): number => {
  const base = Math.max(1, Duration.toMillis(settings.unknownRetryBase))
  const step = Math.min(Duration.toMillis(settings.unknownRetryMax), base * 2 ** Math.max(0, Math.min(attempt - 1, 30)))
  return Math.round(step / 2 + (step / 2) * random)
}
