import { Clock, Effect } from "effect"

/** The current instant from Effect's Clock, so tests drive it with `TestClock`. */
export const currentDate: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** The UTC calendar day of an instant, "YYYY-MM-DD" (quota days reset at 00:00 UTC). */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10)

export const addMillis = (date: Date, ms: number): Date => new Date(date.getTime() + ms)
