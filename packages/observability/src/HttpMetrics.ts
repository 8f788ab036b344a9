/**
 * Request metrics, by route pattern (never the raw path: ids would explode the series) and status:
 * `http_requests_total` and the latency histogram `http_request_duration_seconds`.
 */
import { type Context, Effect, Metric } from "effect"

const requests = Metric.counter("http_requests_total", {
  description: "HTTP requests answered, by method, route and status",
  incremental: true
})

// Seconds: from a fast cached answer to a slow marketplace call.
const duration = Metric.histogram("http_request_duration_seconds", {
  description: "Time to answer an HTTP request, by method, route and status",
  boundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
})

/** Counts one answered request and its duration. */
export const recordRequest = (method: string, route: string, status: number, durationMs: number) => {
  const series = seriesOf(method, route, status)
  return Effect.andThen(Metric.update(series.requests, 1), Metric.update(series.duration, durationMs / 1000))
}

/** `recordRequest` without an effect, on the metrics of `context` (the same series, the same updates). */
export const recordRequestIn = (context: Context.Context<never>, method: string, route: string, status: number, durationMs: number) => {
  const series = seriesOf(method, route, status)
  series.requests.updateUnsafe(1, context)
  series.duration.updateUnsafe(durationMs / 1000, context)
}

// One pair of attributed metrics per series, made once: routes are patterns, so the series are few.
const series = new Map<string, { readonly requests: typeof requests; readonly duration: typeof duration }>()

const seriesOf = (method: string, route: string, status: number) => {
  const key = `${method} ${status} ${route}`
  let found = series.get(key)
  if (found === undefined) {
    const attributes = { method, route, status: String(status) }
    found = { requests: Metric.withAttributes(requests, attributes), duration: Metric.withAttributes(duration, attributes) }
    series.set(key, found)
  }
  return found
}
