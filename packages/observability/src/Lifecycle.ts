/**
 * Lifecycle lines every process writes: started (with its effective settings, secrets shown as
 * `<redacted>`), shutdown begun (the first finalizer to run once SIGTERM arrives) and shutdown done,
 * or the error it stopped on. `runObserved` also installs the logger of `Logging.ts` and, when an
 * OTLP endpoint is configured, the trace exporter of `Tracing.ts`.
 */
import { Cause, Duration, Effect, Exit, Layer, Option, Redacted, Runtime } from "effect"
import { type LogFormat, levelOf, loggingLayer } from "./Logging.ts"
import { registerEnvironmentSecrets } from "./LogRedaction.ts"
import { type TraceExport, tracingLayer } from "./Tracing.ts"

/** What `@resale/config` reads for the logger and the trace exporter (`readObservability`). */
export interface ObservedSettings {
  readonly logFormat: LogFormat
  readonly logLevel: string
  readonly traces: Option.Option<TraceExport>
  readonly environment: Readonly<Record<string, string | undefined>>
}

/** The logger and the trace exporter of `settings`; the environment's secret values are scrubbed from every line. */
export const observedLayer = (settings: ObservedSettings): Layer.Layer<never> => {
  registerEnvironmentSecrets(settings.environment)
  return Layer.mergeAll(
    loggingLayer({ format: settings.logFormat, level: levelOf(settings.logLevel) }),
    tracingLayer(settings.traces)
  )
}

const snakeCase = (key: string): string => key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase()

const settingValue = (value: unknown): unknown => {
  if (Redacted.isRedacted(value)) return "<redacted>"
  if (Option.isOption(value)) return Option.isSome(value) ? settingValue(value.value) : null
  if (typeof value === "bigint") return value.toString()
  if (Duration.isDuration(value)) return Duration.format(value)
  if (Array.isArray(value)) return value.map(settingValue)
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return settingsForLog(value)
  return value
}

/** Settings as a log may show them: snake_case keys, secrets as `<redacted>`, options as value or null. */
export const settingsForLog = (settings: object): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(settings)) {
    if (typeof value !== "function") out[snakeCase(key)] = settingValue(value)
  }
  return out
}

/** `<process> started` with its effective settings under `config`. */
export const logStarted = (process: string, settings: object) =>
  Effect.logInfo(`${process} started`).pipe(Effect.annotateLogs({ process, config: settingsForLog(settings) }))

/**
 * A layer with nothing in it but a finalizer logging `shutdown begun`: provide the whole process
 * under it (`Layer.provide(app)`), so it is built last and its finalizer runs first.
 */
export const shutdownBegun = (process: string): Layer.Layer<never> =>
  Layer.effectDiscard(
    Effect.addFinalizer(() => Effect.logInfo(`${process}: shutdown begun`).pipe(Effect.annotateLogs({ process })))
  )

/**
 * `error`'s message; for one without (a tagged error wrapping another), its tag and its cause's
 * message, followed at most `depth` causes deep (a chain that loops back must not overflow the stack
 * while the process says what it stopped on).
 */
export const messageOf = (error: unknown, depth = 5): string => {
  if (typeof error !== "object" || error === null) return String(error)
  if ("message" in error && typeof error.message === "string" && error.message !== "") return error.message
  return "cause" in error && error.cause !== undefined && depth > 0
    ? `${String(error)}: ${messageOf(error.cause, depth - 1)}`
    : String(error)
}

/**
 * `program` under the logger and trace exporter of `settings`, ending with `shutdown done` (stopped by a signal) or the
 * error it stopped on. Run it with `NodeRuntime.runMain({ disableErrorReporting: true })`: the error
 * is logged here, through the configured logger, rather than by effect's default one.
 */
export const runObserved = <A, E, R>(
  process: string,
  settings: Effect.Effect<ObservedSettings>,
  program: Effect.Effect<A, E, R>
) =>
  program.pipe(
    Effect.onExit((exit) => {
      if (exit._tag === "Success" || Cause.hasInterruptsOnly(exit.cause))
        return Effect.logInfo(`${process}: shutdown done`)
      // An expected failure (a configuration problem, a database that refused) is its message; a defect keeps its trace.
      const failure = Cause.findErrorOption(exit.cause)
      return Option.isSome(failure) && Cause.hasFails(exit.cause) && !Cause.hasDies(exit.cause)
        ? Effect.logError(`${process} stopped: ${messageOf(failure.value)}`)
        : Effect.logError(`${process} stopped on an error`, exit.cause)
    }),
    Effect.annotateLogs({ process }),
    Effect.provide(Layer.unwrap(Effect.map(settings, observedLayer)))
  )

/** For `NodeRuntime.runMain`: a stop asked for by SIGTERM / SIGINT is a clean exit (0), not 130. */
export const stopCleanly: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
