/**
 * A clock that reads the real time plus an offset the test moves forward. A test of a time window
 * (a top-up's expiry, the re-match window) then sets the window long and jumps past it: the window
 * passes at once, and a loaded machine, however slow, cannot let it pass early. Sleeps stay real, so
 * the driver's and the pool's timers behave as always.
 */
import { Clock, Duration, Effect } from "effect"

export interface ShiftedClock {
  readonly clock: Clock.Clock
  /** Moves the clock's time forward by `by`, at once. */
  readonly advance: (by: Duration.Input) => Effect.Effect<void>
}

export const makeShiftedClock = (): ShiftedClock => {
  const real = Clock.Clock.defaultValue()
  let offsetMs = 0
  const millis = () => real.currentTimeMillisUnsafe() + offsetMs
  const nanos = () => real.currentTimeNanosUnsafe() + BigInt(offsetMs) * 1_000_000n
  const clock: Clock.Clock = {
    currentTimeMillisUnsafe: millis,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanosUnsafe: nanos,
    currentTimeNanos: Effect.sync(nanos),
    monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: real.monotonicTimeNanos,
    sleep: (duration) => real.sleep(duration)
  }
  return {
    clock,
    advance: (by) =>
      Effect.sync(() => {
        offsetMs += Duration.toMillis(Duration.fromInputUnsafe(by))
      })
  }
}

/** Runs `effect` on a shifted clock that `use` may move forward. */
export const withShiftedClock = <A, E, R>(use: (shifted: ShiftedClock) => Effect.Effect<A, E, R>) => {
  const shifted = makeShiftedClock()
  return Effect.provideService(use(shifted), Clock.Clock, shifted.clock)
}
