/**
 * Request metrics, by route pattern (never the raw path: ids would explode the series) and status:
 * `http_requests_total` and the latency histogram `http_request_duration_seconds`.
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

/** Counts one answered request and its duration. */
export const recordRequest = (method: string, route: string, status: number, durationMs: number) => {
  const series = requestSeries(method, route, status)
  return Effect.andThen(Metric.update(series.requests, 1), Metric.update(series.duration, durationMs / 1000))
}

/** `recordRequest` without an effect, on the metrics of `context` (the same series, the same updates). */
export const recordRequestIn = (
  context: Context.Context<never>,
  method: string,
  route: string,
  status: number,
  durationMs: number
) => requestSeries(method, route, status).record(context, durationMs)

export interface RequestSeries {
  readonly requests: Metric.Counter<number>
  readonly duration: Metric.Histogram<number>
  /** Counts one request of this series and its duration, on the metrics of `context`. */
  readonly record: (context: Context.Context<never>, durationMs: number) => void
}

// One pair of metrics per series, made once with its attributes: routes are patterns, so the series are
// few. Attributes given at creation, not by `Metric.withAttributes`, which copies the whole context on
// every update to add them; the series (key, attributes, values) are the same.
const series = new Map<string, RequestSeries>()

/** The metrics of one method, route pattern and status. */
export const requestSeries = (method: string, route: string, status: number): RequestSeries => {
  const key = `${method} ${status} ${route}`
  let found = series.get(key)
  if (found === undefined) {
    const attributes = { method, route, status: String(status) }
    const requests = Metric.counter(REQUESTS, { ...REQUESTS_OPTIONS, attributes })
    const duration = Metric.histogram(DURATION, { ...DURATION_OPTIONS, attributes })
    found = {
      requests,
      duration,
      record: (context, durationMs) => {
        requests.updateUnsafe(1, context)
        duration.updateUnsafe(durationMs / 1000, context)
      }
    }
    series.set(key, found)
  }
  return found
}
