import { assert, describe, it } from "@effect/vitest"
import { type Context, Effect, Layer, Logger, References } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { makeJsonLogger, makePrettyLogger } from "../src/Logging.ts"
import { registerSecret } from "../src/LogRedaction.ts"
import { recordRequestFacts, requestRecorder, unroutedFacts } from "../src/RequestLog.ts"

const API_KEY = `rk_${"Zx9cVbNm1aSdFgHjKlQwErTyUiOp0_-123456789012"}`
const MNEMONIC = "abandon ability able about above absent absorb abstract absurd abuse access accident"

/** A context as the server's request fibers have it, with a JSON (or pretty) logger writing to `lines`. */
const contextWith = (lines: Array<string>, format: "json" | "pretty" = "json", minimum: "Info" | "Error" = "Info") =>
  Effect.context<never>().pipe(
    Effect.annotateLogs("process", "server"),
    Effect.provide(
      Layer.mergeAll(
        Logger.layer([(format === "json" ? makeJsonLogger : makePrettyLogger)((line) => lines.push(line))]),
        Layer.succeed(References.MinimumLogLevel, minimum)
      )
    )
  ) as Effect.Effect<Context.Context<never>>

type Request = Parameters<ReturnType<typeof requestRecorder>>

// Every kind of value the line's varying fields take: ids to echo, ids that are keys, paths with
// quotes and non-Latin text, a missing client, a user or none, a 5xx (Error level), ids as :id.
const requests: ReadonlyArray<Request> = [
  ["GET", "/v2/api/pricing", 200, 0.3, "127.0.0.1", "req-1", undefined, undefined],
  ["GET", "/v2/api/pricing?lang=ru", 200, 12, "::1", API_KEY, undefined, undefined],
  ["GET", "/v2/api/balance", 200, 1.5, null, "req-2", "/v2/api/balance", "42"],
  ["GET", "/v2/api/orders/17", 500, 3, "10.0.0.1", 'req-"3"', undefined, MNEMONIC],
  ["GET", `/v2/api/${MNEMONIC.replaceAll(" ", "/")}`, 404, 0, "10.0.0.1", "req-4", undefined, undefined],
  ["POST", "/v2/api/stars/buy\u00e9\u2028", 201, 7.25, "10.0.0.2", "req-5", "/v2/api/stars/buy", "7"]
]

/** The lines and metrics of `requests` made by `recordRequestFacts` and by a recorder. */
const both = (format: "json" | "pretty" = "json", minimum: "Info" | "Error" = "Info") =>
  Effect.gen(function* () {
    const general: Array<string> = []
    const shaped: Array<string> = []
    const generalContext = yield* contextWith(general, format, minimum)
    const shapedContext = yield* contextWith(shaped, format, minimum)
    const record = requestRecorder(shapedContext, { log: true })
    for (const [method, url, status, duration, client, id, route, user] of requests) {
      const later = recordRequestFacts(
        unroutedFacts(method, url, status, duration, client, id, route, user),
        { log: true },
        generalContext
      )
      assert.isUndefined(later)
      assert.isUndefined(record(method, url, status, duration, client, id, route, user))
    }
    const time = format === "json" ? /"time":"[^"]+"/ : /^\S+/
    const withoutTime = (lines: Array<string>) => lines.map((line) => line.replace(time, "T"))
    return { general: withoutTime(general), shaped: withoutTime(shaped), raw: shaped }
  })

describe("request lines from a shape (requestRecorder)", () => {
  it.effect("writes exactly the lines recordRequestFacts writes: fields, order, escaping, scrubbing, levels", () =>
    Effect.gen(function* () {
      for (const format of ["json", "pretty"] as const) {
        const { general, raw, shaped } = yield* both(format)
        assert.strictEqual(shaped.length, requests.length)
        assert.deepStrictEqual(shaped, general)
        const text = shaped.join("\n")
        assert.notInclude(text, API_KEY)
        assert.notInclude(text, "abandon ability")
        if (format === "json") {
          for (const line of raw)
            assert.match(String(JSON.parse(line)["time"]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
          assert.notProperty(JSON.parse(raw[0]!), "user", "a line without a user has no user field")
          assert.strictEqual(JSON.parse(raw[3]!)["level"], "error")
        }
      }
    })
  )

  it.effect("keeps to the minimum level as the general way does", () =>
    Effect.gen(function* () {
      const { general, shaped } = yield* both("json", "Error")
      assert.strictEqual(shaped.length, 1)
      assert.deepStrictEqual(shaped, general)
    })
  )

  it.effect("scrubs a secret registered after its lines' shape was made", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const record = requestRecorder(yield* contextWith(lines), { log: true })
      record("GET", "/v2/api/pricing", 200, 1, "127.0.0.1", "first", undefined, undefined)
      const secret = "late-secret-route-4711"
      registerSecret(secret)
      record("GET", "/v2/api/pricing", 200, 1, "127.0.0.1", secret, undefined, undefined)
      record("GET", `/${secret}`, 200, 1, "127.0.0.1", "third", undefined, undefined)
      assert.strictEqual(lines.length, 3)
      assert.notInclude(lines.join("\n"), secret)
      assert.strictEqual(JSON.parse(lines[1]!)["request_id"], "<redacted>")
    })
  )

  it.effect("scrubs a repeated path that became a secret between its lines (no text kept from before)", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const record = requestRecorder(yield* contextWith(lines), { log: true })
      const secret = "late-secret-path-0815"
      record("GET", `/v2/${secret}`, 404, 1, "127.0.0.1", "before", undefined, undefined)
      registerSecret(secret)
      record("GET", `/v2/${secret}`, 404, 1, "127.0.0.1", "after", undefined, undefined)
      assert.include(lines[0]!, secret)
      assert.notInclude(lines[1]!, secret)
      assert.strictEqual(JSON.parse(lines[1]!)["path"], "/v2/<redacted>")
      assert.strictEqual(JSON.parse(lines[1]!)["message"], "GET /v2/<redacted> 404")
    })
  )

  it.effect("counts each request in its series, as the general way does", () =>
    Effect.gen(function* () {
      const count = Effect.map(PrometheusMetrics.format(), (text) =>
        text.split("\n").filter((l) => l.startsWith("http_requests_total{") && l.includes(`route="/v2/shape-test"`))
      )
      const context = yield* Effect.context<never>()
      // The route is named: a request without one is counted as `unmatched`, never under its path.
      const route = "/v2/shape-test"
      recordRequestFacts(unroutedFacts("GET", route, 200, 1, null, "a", route), { log: false }, context)
      requestRecorder(context, { log: false })("GET", route, 200, 1, null, "b", route, undefined)
      const series = yield* count
      assert.strictEqual(series.length, 1)
      assert.match(series[0]!, /method="GET".*status="200".* 2$/)
    })
  )
})
