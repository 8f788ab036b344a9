/**
 * The logger's and the trace exporter's settings, read before the rest of the configuration: the logger
 * must exist to report the configuration's problems. A malformed value takes its default here; the
 * full read (`readSettings`) reports it with every other problem.
 */
import { Config, Effect, Option, Redacted, Result } from "effect"
import { Mode } from "./catalogue/ServerSettings.ts"
import { parseHeaderList } from "./SecretSettings.ts"
import type { Setting } from "./Setting.ts"

export type LogFormat = "json" | "pretty"
export type LogLevelName = "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "none"

export interface TraceExport {
  /** The OTLP/HTTP traces URL. */
  readonly url: string
  readonly serviceName: string
  readonly headers: Readonly<Record<string, string>>
}

export interface ObservabilitySettings {
  readonly logFormat: LogFormat
  readonly logLevel: LogLevelName
  /** None: no trace export (no endpoint, or OTEL_SDK_DISABLED). */
  readonly traces: Option.Option<TraceExport>
  /** The variables of the environment, for the log scrubber's net before the configuration is read. */
  readonly environment: Readonly<Record<string, string | undefined>>
}

/** `setting`'s value, its default when unset, blank or malformed. */
const lenient = <A>(setting: Setting<A>): Effect.Effect<A> =>
  Effect.gen(function* () {
    const text = yield* Config.option(Config.String(setting.name))
    if (Option.isNone(text) || text.value.trim() === "") return setting.fallback
    const decoded = setting.decode(text.value)
    return Result.isSuccess(decoded) ? decoded.success : setting.fallback
  }).pipe(Effect.orElseSucceed(() => setting.fallback))

/** The observability settings of `process` ("server", "worker"): its default service name is `resale-<process>`. */
export const readObservability = (process: string): Effect.Effect<ObservabilitySettings> =>
  Effect.gen(function* () {
    const format = yield* lenient(Mode.LOG_FORMAT)
    const level = yield* lenient(Mode.LOG_LEVEL)
    const disabled = yield* lenient(Mode.OTEL_SDK_DISABLED)
    const traces = yield* lenient(Mode.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
    const base = yield* lenient(Mode.OTEL_EXPORTER_OTLP_ENDPOINT)
    const url = Option.orElse(traces, () => Option.map(base, (u) => `${u.trim().replace(/\/+$/, "")}/v1/traces`))
    const serviceName = Option.getOrElse(yield* lenient(Mode.OTEL_SERVICE_NAME), () => `resale-${process}`)
    const headers = Option.match(yield* lenient(Mode.OTEL_EXPORTER_OTLP_HEADERS), {
      onNone: () => ({}),
      onSome: (text) => Object.fromEntries(parseHeaderList(Redacted.value(text)))
    })
    return {
      logFormat: Option.getOrElse(format, () => (globalThis.process.stdout.isTTY === true ? "pretty" : "json")),
      logLevel: Option.getOrElse(level, () => "info" as const),
      traces: disabled ? Option.none() : Option.map(url, (u) => ({ url: u.trim(), serviceName, headers })),
      environment: { ...globalThis.process.env }
    }
  })
