import { assert, describe, it } from "@effect/vitest"
import { type Context, Effect } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { makeRequestSeries, UNMATCHED_ROUTE } from "../src/HttpMetrics.ts"
import { unroutedFacts } from "../src/RequestLog.ts"

/** The sample lines of `name` whose labels include `label`. */
const samples = (name: string, label = "") =>
  Effect.map(PrometheusMetrics.format(), (text) =>
    text
      .split("\n")
      .filter((line) => (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) && line.includes(label))
  )

const valueOf = (line: string | undefined) => Number(line?.split(" ").at(-1) ?? 0)

describe("request series", () => {
  it.effect("past the cap no series is made: the request counts in http_metrics_series_dropped_total", () =>
    Effect.gen(function* () {
      const context = (yield* Effect.context<never>()) as Context.Context<never>
      const dropped = valueOf((yield* samples("http_metrics_series_dropped_total"))[0])
      const series = makeRequestSeries(3)
      for (const route of ["/cap-a", "/cap-b", "/cap-c"]) series("GET", route, 200).record(context, 1)
      // Past the cap: two new series refused, the existing ones still counted.
      series("GET", "/cap-d", 200).record(context, 1)
      series("POST", "/cap-a", 200).record(context, 1)
      series("GET", "/cap-a", 200).record(context, 1)
      assert.strictEqual(valueOf((yield* samples("http_metrics_series_dropped_total"))[0]), dropped + 2)
      assert.deepStrictEqual(yield* samples("http_requests_total", `route="/cap-d"`), [])
      assert.deepStrictEqual(
        yield* samples("http_requests_total", `route="/cap-a",status="200"`).pipe(
          Effect.map((lines) => lines.filter((line) => line.includes(`method="POST"`)))
        ),
        []
      )
      const a = yield* samples("http_requests_total", `route="/cap-a"`)
      assert.strictEqual(a.length, 1)
      assert.strictEqual(valueOf(a[0]), 2)
    })
  )

  it("a request no route matched is labelled `unmatched`, never by its path", () => {
    for (const status of [404, 405, 413, 200]) {
      const facts = unroutedFacts("GET", `/random-${status}/12345?x=1`, status, 1, null, "id")
      assert.strictEqual(facts.route, UNMATCHED_ROUTE)
      assert.strictEqual(facts.path, `/random-${status}/12345`, "the log line keeps the path")
    }
  })
})
