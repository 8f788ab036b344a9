import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option } from "effect"
import { readObservability } from "../src/ObservabilitySettings.ts"

const read = (env: Record<string, string>, process = "worker") =>
  readObservability(process).pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env))))

describe("readObservability", () => {
  it.effect("OTEL_EXPORTER_OTLP_ENDPOINT sends traces to <url>/v1/traces as resale-<process>", () =>
    Effect.gen(function* () {
      const settings = yield* read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })
      assert.deepStrictEqual(
        settings.traces,
        Option.some({ url: "http://collector:4318/v1/traces", serviceName: "resale-worker", headers: {} })
      )
    })
  )

  it.effect("the traces endpoint wins, headers are percent-decoded, the service name is taken as given", () =>
    Effect.gen(function* () {
      const settings = yield* read({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/v1/traces",
        OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20abc,x-team=ops",
        OTEL_SERVICE_NAME: "shop"
      })
      assert.deepStrictEqual(
        settings.traces,
        Option.some({
          url: "https://traces.example/v1/traces",
          serviceName: "shop",
          headers: { authorization: "Bearer abc", "x-team": "ops" }
        })
      )
    })
  )

  it.effect("no endpoint, or OTEL_SDK_DISABLED, exports nothing", () =>
    Effect.gen(function* () {
      assert.isTrue(Option.isNone((yield* read({})).traces))
      const disabled = yield* read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" })
      assert.isTrue(Option.isNone(disabled.traces))
    })
  )

  it.effect("LOG_FORMAT and LOG_LEVEL as given; a malformed one takes its default (the full read reports it)", () =>
    Effect.gen(function* () {
      const given = yield* read({ LOG_FORMAT: "pretty", LOG_LEVEL: "WARN" })
      assert.strictEqual(given.logFormat, "pretty")
      assert.strictEqual(given.logLevel, "warn")
      const bad = yield* read({ LOG_FORMAT: "xml", LOG_LEVEL: "loud" })
      assert.strictEqual(bad.logLevel, "info")
      assert.include(["json", "pretty"], bad.logFormat)
    })
  )
})
