/**
 * Optional trace export: when `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`
 * (then `<url>/v1/traces`) is set, the spans the code already makes (`Effect.fn` names, HTTP requests,
 * SQL statements) go to that OTLP/HTTP collector as JSON, batched, and are flushed at shutdown, under
 * `OTEL_SERVICE_NAME` (default `resale-<process>`). `OTEL_SDK_DISABLED=true` turns it off. Unset:
 * nothing changes and no tracer runs.
 */
import { Config, Effect, Layer, Option } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"

const tracesUrl = Effect.gen(function* () {
  const disabled = yield* Config.Boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false))
  const traces = yield* Config.String("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").pipe(Config.option)
  const base = yield* Config.String("OTEL_EXPORTER_OTLP_ENDPOINT").pipe(Config.option)
  const url = Option.orElse(
    Option.filter(traces, (u) => u.trim() !== ""),
    () =>
      Option.map(
        Option.filter(base, (u) => u.trim() !== ""),
        (u) => `${u.trim().replace(/\/+$/, "")}/v1/traces`
      )
  )
  return disabled ? Option.none<string>() : url
})

/** The OTLP trace exporter of `process`, or nothing when no endpoint is configured. */
export const tracingLayer = (process: string): Layer.Layer<never> =>
  Layer.unwrap(
    Effect.gen(function* () {
      const url = yield* tracesUrl
      if (Option.isNone(url)) return Layer.empty
      const serviceName = yield* Config.String("OTEL_SERVICE_NAME").pipe(Config.withDefault(`resale-${process}`))
      return OtlpTracer.layer({ url: url.value, resource: { serviceName } }).pipe(
        Layer.provide(OtlpSerialization.layerJson),
        Layer.provide(FetchHttpClient.layer)
      ) as Layer.Layer<unknown>
    })
  ).pipe(Layer.orDie) as Layer.Layer<never>
