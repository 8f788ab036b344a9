/**
 * Optional trace export: when `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`
 * (then `<url>/v1/traces`) is set, the spans the code already makes (`Effect.fn` names, HTTP requests,
 * SQL statements) go to that OTLP/HTTP collector as JSON, batched, and are flushed at shutdown, under
 * `OTEL_SERVICE_NAME` (default `resale-<process>`), with the headers of `OTEL_EXPORTER_OTLP_HEADERS`
 * (`key=value,key2=value2`, values percent-decoded). `OTEL_SDK_DISABLED=true` turns it off. Unset:
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

const decoded = (value: string): string => {
  try {
    return decodeURIComponent(value)
  } catch {
    // not percent-encoded after all: as written
    return value
  }
}

/** `key=value,key2=value2` as the OpenTelemetry environment writes headers. */
export const otlpHeaders = (text: string): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (const pair of text.split(",")) {
    const at = pair.indexOf("=")
    if (at <= 0) continue
    headers[pair.slice(0, at).trim()] = decoded(pair.slice(at + 1).trim())
  }
  return headers
}

/** The OTLP trace exporter of `process`, or nothing when no endpoint is configured. */
export const tracingLayer = (process: string): Layer.Layer<never> =>
  Layer.unwrap(
    Effect.gen(function* () {
      const url = yield* tracesUrl
      if (Option.isNone(url)) return Layer.empty
      const serviceName = yield* Config.String("OTEL_SERVICE_NAME").pipe(Config.withDefault(`resale-${process}`))
      const headers = otlpHeaders(yield* Config.String("OTEL_EXPORTER_OTLP_HEADERS").pipe(Config.withDefault("")))
      return OtlpTracer.layer({ url: url.value, resource: { serviceName }, headers }).pipe(
        Layer.provide(OtlpSerialization.layerJson),
        Layer.provide(FetchHttpClient.layer)
      ) as Layer.Layer<unknown>
    })
  ).pipe(Layer.orDie) as Layer.Layer<never>
