/**
 * The process's logger: one JSON object per line (`LOG_FORMAT=json`, the default when stdout is not a
 * terminal) or one readable line (`pretty`, the default on a terminal), at `LOG_LEVEL` and above.
 * Every line carries `time` (ISO 8601 with zone), `level`, `message` and the log annotations in scope as
 * snake_case fields (`orderId` becomes `order_id`), so a request id, order id or user id annotated
 * anywhere appears on every line logged under it. Every string is scrubbed of secrets first.
 */
import { Cause, Config, Effect, Layer, Logger, LogLevel, References } from "effect"
import { registerEnvironmentSecrets, scrub } from "./LogRedaction.ts"

export type LogFormat = "json" | "pretty"

export interface LogSettings {
  readonly format: LogFormat
  readonly level: LogLevel.LogLevel
}

const levelOf = (text: string): LogLevel.LogLevel | undefined =>
  LogLevel.values.find((level) => level.toLowerCase() === text.trim().toLowerCase())

/**
 * `LOG_FORMAT` (json | pretty; pretty only on a terminal by default) and `LOG_LEVEL` (any case, default
 * info). Read here rather than from `@resale/config`, because the logger must exist before the
 * configuration is read; the catalogue lists and checks them too, so a bad value is reported with the rest.
 */
export const logSettings: Config.Config<LogSettings> = Config.all({
  format: Config.String("LOG_FORMAT").pipe(
    Config.map((text): LogFormat => (text.trim().toLowerCase() === "pretty" ? "pretty" : "json")),
    Config.withDefault<LogFormat>(process.stdout.isTTY === true ? "pretty" : "json")
  ),
  level: Config.String("LOG_LEVEL").pipe(
    Config.map((text) => levelOf(text) ?? "Info"),
    Config.withDefault<LogLevel.LogLevel>("Info")
  )
})

// Annotation keys are few and repeat on every line: each is converted once.
const snakeCases = new Map<string, string>()
const snakeCase = (key: string): string => {
  let out = snakeCases.get(key)
  if (out === undefined) {
    out = key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/[^A-Za-z0-9_]+/g, "_").toLowerCase()
    if (snakeCases.size < 1024) snakeCases.set(key, out)
  }
  return out
}

/** A JSON-safe copy of `value` with every string scrubbed (bigints as text, Redacted as its label). */
const loggable = (value: unknown, depth = 0): unknown => {
  if (typeof value === "string") return scrub(value)
  if (typeof value === "bigint") return value.toString()
  if (value === null || typeof value !== "object") return typeof value === "function" || typeof value === "symbol" ? String(value) : value
  if (depth > 5) return "<nested>"
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return value.map((item) => loggable(item, depth + 1))
  if ("toJSON" in value && typeof value.toJSON === "function") return loggable(value.toJSON(), depth + 1)
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) out[key] = loggable(item, depth + 1)
  return out
}

const messageText = (message: unknown): string => {
  const parts = Array.isArray(message) ? message : [message]
  return parts
    .map((part) => (typeof part === "string" ? part : JSON.stringify(loggable(part))))
    .join(" ")
}

/** The fields of one log line, in the order they are written. */
export const logRecord = (options: Logger.Options<unknown>): Record<string, unknown> => {
  const record: Record<string, unknown> = {
    time: options.date.toISOString(),
    level: options.logLevel.toLowerCase(),
    message: scrub(messageText(options.message))
  }
  for (const [key, value] of Object.entries(options.fiber.getRef(References.CurrentLogAnnotations))) {
    record[snakeCase(key)] = loggable(value)
  }
  const now = options.date.getTime()
  for (const [label, started] of options.fiber.getRef(References.CurrentLogSpans)) {
    record[`${snakeCase(label)}_ms`] = now - started
  }
  if (options.cause.reasons.length > 0) record["error"] = scrub(Cause.pretty(options.cause))
  return record
}

/**
 * Lines logged in one turn of the event loop go to stdout in one write: under load a write per
 * request line cost more than the rest of the line's work. Writes to files and pipes are synchronous
 * on Linux, so what is pending when the process exits is written before it goes.
 */
let pending: Array<string> = []
const flush = () => {
  if (pending.length === 0) return
  const text = pending.join("")
  pending = []
  process.stdout.write(text)
}
let flushOnExit = false
const stdout = (line: string) => {
  if (!flushOnExit) {
    flushOnExit = true
    process.on("exit", flush)
  }
  if (pending.length === 0) setImmediate(flush)
  pending.push(`${line}\n`)
}

/** One JSON object per line, to `write` (stdout by default). */
export const makeJsonLogger = (write: (line: string) => void = stdout) =>
  Logger.make((options) => write(JSON.stringify(logRecord(options))))

export const jsonLogger = makeJsonLogger()

const prettyValue = (value: unknown): string =>
  typeof value === "string" ? (/^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)) : JSON.stringify(value)

/** One readable line on stdout: `time LEVEL message key=value ...` (an error's trace on the lines after). */
export const makePrettyLogger = (write: (line: string) => void = stdout) => Logger.make((options) => {
  const { time, level, message, error, ...fields } = logRecord(options)
  const rest = Object.entries(fields).map(([key, value]) => `${key}=${prettyValue(value)}`)
  const head = [time, String(level).toUpperCase().padEnd(5), message, ...rest].join(" ")
  write(error === undefined ? head : `${head}\n${String(error)}`)
})

export const prettyLogger = makePrettyLogger()

/** The logger and minimum level for `settings`, replacing effect's default logger. */
export const loggingLayer = (settings: LogSettings): Layer.Layer<never> =>
  Layer.mergeAll(
    Logger.layer([settings.format === "json" ? jsonLogger : prettyLogger]),
    Layer.succeed(References.MinimumLogLevel, settings.level)
  )

/** `loggingLayer` from the environment; the environment's secret values are scrubbed from every line. */
export const Logging: Layer.Layer<never, Config.ConfigError> = Layer.unwrap(
  Effect.gen(function*() {
    const settings = yield* logSettings
    registerEnvironmentSecrets(process.env)
    return loggingLayer(settings)
  })
)
