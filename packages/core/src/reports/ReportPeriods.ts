/**
 * Report periods in Tashkent time. Uzbekistan keeps UTC+5 all year (no daylight saving since 1992),
 * so a Tashkent calendar day starts at 19:00 UTC the day before; weeks start on Monday (as ISO and
 * PostgreSQL's `date_trunc('week')` do), months on the 1st.
 */
export const REPORT_PERIODS = ["day", "week", "month"] as const
export type ReportPeriod = (typeof REPORT_PERIODS)[number]

/** Tashkent's offset from UTC, in hours and milliseconds. */
export const TASHKENT_UTC_OFFSET_HOURS = 5
const OFFSET_MS = TASHKENT_UTC_OFFSET_HOURS * 3_600_000
const DAY_MS = 86_400_000

/** "YYYY-MM-DD" that is a real calendar date. */
export const isLocalDate = (text: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text
}

const asUtcMidnight = (day: string): number => Date.parse(`${day}T00:00:00Z`)
const dayOf = (utcMidnight: number): string => new Date(utcMidnight).toISOString().slice(0, 10)

/** The Tashkent calendar day of an instant. */
export const tashkentDay = (instant: Date): string => dayOf(instant.getTime() + OFFSET_MS)

/** The instant a Tashkent calendar day begins. */
export const startOfTashkentDay = (day: string): Date => new Date(asUtcMidnight(day) - OFFSET_MS)

/** The first day of the period that contains `day`. */
export const periodStart = (period: ReportPeriod, day: string): string => {
  const ms = asUtcMidnight(day)
  if (period === "day") return day
  if (period === "month") return `${day.slice(0, 7)}-01`
  const weekday = (new Date(ms).getUTCDay() + 6) % 7 // Monday 0 ... Sunday 6
  return dayOf(ms - weekday * DAY_MS)
}

/** The first day of the period after the one starting on `start`. */
export const nextPeriodStart = (period: ReportPeriod, start: string): string => {
  const ms = asUtcMidnight(start)
  if (period === "day") return dayOf(ms + DAY_MS)
  if (period === "week") return dayOf(ms + 7 * DAY_MS)
  const date = new Date(ms)
  return dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1))
}

/** One report row's span: its first day and its last day (inclusive), Tashkent dates. */
export interface PeriodSpan {
  readonly start: string
  readonly last: string
}

/**
 * The periods covering `from`..`to` (inclusive days), whole periods: a week or month report starts
 * at the beginning of the period holding `from` and ends at the end of the one holding `to`.
 */
export const periodSpans = (period: ReportPeriod, from: string, to: string): ReadonlyArray<PeriodSpan> => {
  const spans: Array<PeriodSpan> = []
  for (let start = periodStart(period, from); start <= to; start = nextPeriodStart(period, start)) {
    spans.push({ start, last: dayOf(asUtcMidnight(nextPeriodStart(period, start)) - DAY_MS) })
  }
  return spans
}

/** A preset range of the report page: its grouping and its days (`today` is the Tashkent day). */
export interface ReportRange {
  readonly period: ReportPeriod
  readonly from: string
  readonly to: string
}

export const REPORT_PRESETS = ["thisWeek", "thisMonth", "lastMonth", "thisYear"] as const
export type ReportPreset = (typeof REPORT_PRESETS)[number]

/**
 * The page's presets, each short enough for a phone: this week by day (7 rows at most), this month
 * and last month by week, this year by month.
 */
export const presetRange = (preset: ReportPreset, today: string): ReportRange => {
  switch (preset) {
    case "thisWeek":
      return { period: "day", from: periodStart("week", today), to: today }
    case "thisMonth":
      return { period: "week", from: periodStart("month", today), to: today }
    case "lastMonth": {
      const first = periodStart("month", today)
      const lastDay = dayOf(asUtcMidnight(first) - DAY_MS)
      return { period: "week", from: periodStart("month", lastDay), to: lastDay }
    }
    case "thisYear":
      return { period: "month", from: `${today.slice(0, 4)}-01-01`, to: today }
  }
}

/**
 * The days a report covers when none are given: for days, this week (Monday to today: a phone's
 * screenful); for weeks, this month; for months, this year.
 */
export const defaultRange = (period: ReportPeriod, today: string): { readonly from: string; readonly to: string } => {
  const { from, to } = presetRange(period === "day" ? "thisWeek" : period === "week" ? "thisMonth" : "thisYear", today)
  return { from, to }
}
