/**
 * Request metrics, by route pattern (never the raw path: ids would explode the series) and status:
 * `http_requests_total` and the latency histogram `http_request_duration_seconds`. The route label
 * comes from the route table only (`unmatched` for every request no route matched), and the series
 * set is capped: past `MAX_SERIES` a new series is not made, `http_metrics_series_dropped_total`
 * counts its requests instead, so no caller can grow `/metrics` or the process's memory for good.
 */
import { type Context, Effect, Metric } from "effect"

const REQUESTS = "http_requests_total"
const REQUESTS_OPTIONS = {
  description: "HTTP requests answered, by method, route and status",
  incremental: true
} as const

// Seconds: from a fast cached answer to a slow marketplace call.
const DURATION = "http_request_duration_seconds"
const DURATION_OPTIONS = {
  description: "Time to answer an HTTP request, by method, route and status",
  boundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
} as const

/** The route label of every request that matched no route (404s, 405s, answers given before routing). */
export const UNMATCHED_ROUTE = "unmatched"

/**
 * Far above what the route table makes (routes × methods × statuses seen: a few hundred), far below
 * what costs a scrape anything: each series is a counter and a 14-line histogram.
 */
export const MAX_SERIES = 2000

const DROPPED = Metric.counter("http_metrics_series_dropped_total", {
  description: "HTTP requests not counted in a series of their own because the series cap was reached",
  incremental: true
})

export interface RequestSeries {
  /** Counts one request of this series and its duration, on the metrics of `context`. */
  readonly record: (context: Context.Context<never>, durationMs: number) => void
}

/** Where a request goes once the cap is reached: the dropped counter only. */
const dropped: RequestSeries = { record: (context) => DROPPED.updateUnsafe(1, context) }

/**
 * A series lookup with its own cap (tests give a small one). One pair of metrics per series, made once
 * with its attributes: not by `Metric.withAttributes`, which copies the whole context on every update
 * to add them; the series (key, attributes, values) are the same.
 */
export const makeRequestSeries = (cap: number) => {
  const series = new Map<string, RequestSeries>()
  return (method: string, route: string, status: number): RequestSeries => {
    const key = `${method} ${status} ${route}`
    let found = series.get(key)
    if (found === undefined) {
      // O(1): the map knows its size. A refused key is not remembered, so the map stays within the cap too.
      if (series.size >= cap) return dropped
      const attributes = { method, route, status: String(status) }
      const requests = Metric.counter(REQUESTS, { ...REQUESTS_OPTIONS, attributes })
      const duration = Metric.histogram(DURATION, { ...DURATION_OPTIONS, attributes })
      found = {
        record: (context, durationMs) => {
          requests.updateUnsafe(1, context)
          duration.updateUnsafe(durationMs / 1000, context)
        }
      }
      series.set(key, found)
    }
    return found
  }
}

/** The metrics of one method, route pattern and status (the process's series, capped at `MAX_SERIES`). */
export const requestSeries: (method: string, route: string, status: number) => RequestSeries =
  makeRequestSeries(MAX_SERIES)

/** Counts one answered request and its duration. */
export const recordRequest = (method: string, route: string, status: number, durationMs: number) =>
  Effect.withFiber((fiber) => {
    requestSeries(method, route, status).record(fiber.context as Context.Context<never>, durationMs)
    return Effect.void
  })

/** `recordRequest` without an effect, on the metrics of `context` (the same series, the same updates). */
export const recordRequestIn = (
  context: Context.Context<never>,
  method: string,
  route: string,
  status: number,
  durationMs: number
) => requestSeries(method, route, status).record(context, durationMs)
