/**
 * Optional trace export: with an OTLP/HTTP traces URL (`@resale/config` reads
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`, the service name and
 * the headers), the spans the code already makes (`Effect.fn` names, HTTP requests, SQL statements) go
 * to that collector as JSON, batched, and are flushed at shutdown. None: no tracer runs.
 */
import { Layer, Option } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"

export interface TraceExport {
  readonly url: string
  readonly serviceName: string
  readonly headers: Readonly<Record<string, string>>
}

/** The OTLP trace exporter of `traces`, or nothing. */
export const tracingLayer = (traces: Option.Option<TraceExport>): Layer.Layer<never> =>
  Option.match(traces, {
    onNone: () => Layer.empty,
    onSome: ({ headers, serviceName, url }) =>
      OtlpTracer.layer({ url, resource: { serviceName }, headers: { ...headers } }).pipe(
        Layer.provide(OtlpSerialization.layerJson),
        Layer.provide(FetchHttpClient.layer),
        Layer.orDie
      ) as Layer.Layer<never>
  })
