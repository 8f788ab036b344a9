/**
 * The process's logger: one JSON object per line (`LOG_FORMAT=json`, the default when stdout is not a
 * terminal) or one readable line (`pretty`, the default on a terminal), at `LOG_LEVEL` and above.
 * Every line carries `time` (ISO 8601 with zone), `level`, `message` and the log annotations in scope as
 * snake_case fields (`orderId` becomes `order_id`), so a request id, order id or user id annotated
 * anywhere appears on every line logged under it. Every string is scrubbed of secrets first.
 */
import { Cause, Clock, Context, Layer, Logger, LogLevel, References } from "effect"
import { scrub } from "./LogRedaction.ts"

export type LogFormat = "json" | "pretty"

export interface LogSettings {
  readonly format: LogFormat
  readonly level: LogLevel.LogLevel
}

/** A level by name in any case (`LOG_LEVEL`, read by `@resale/config`); unknown names are info. */
export const levelOf = (text: string): LogLevel.LogLevel =>
  LogLevel.values.find((level) => level.toLowerCase() === text.trim().toLowerCase()) ?? "Info"

// Annotation keys are few and repeat on every line: each is converted once.
const snakeCases = new Map<string, string>()
export const snakeCase = (key: string): string => {
  let out = snakeCases.get(key)
  if (out === undefined) {
    out = key
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/[^A-Za-z0-9_]+/g, "_")
      .toLowerCase()
    if (snakeCases.size < 1024) snakeCases.set(key, out)
  }
  return out
}

/** A JSON-safe copy of `value` with every string scrubbed (bigints as text, Redacted as its label). */
const loggable = (value: unknown, depth = 0): unknown => {
  if (typeof value === "string") return scrub(value)
  if (typeof value === "bigint") return value.toString()
  if (value === null || typeof value !== "object")
    return typeof value === "function" || typeof value === "symbol" ? String(value) : value
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
  return parts.map((part) => (typeof part === "string" ? part : JSON.stringify(loggable(part)))).join(" ")
}

/**
 * The fields of one log line, in the order they are written, from its parts (`LineShape.ts` too): the annotations are
 * `annotations` with `added` merged over them (as `Effect.annotateLogs(added)` would merge them).
 */
export const recordOf = (
  date: Date,
  logLevel: LogLevel.LogLevel,
  message: unknown,
  annotations: Readonly<Record<string, unknown>>,
  added: Readonly<Record<string, unknown>> | undefined,
  spans: ReadonlyArray<readonly [string, number]>,
  cause: Cause.Cause<unknown> | undefined
): Record<string, unknown> => {
  const record: Record<string, unknown> = {
    time: date.toISOString(),
    level: logLevel.toLowerCase(),
    message: scrub(messageText(message))
  }
  for (const key in annotations) {
    record[snakeCase(key)] = loggable(added !== undefined && key in added ? added[key] : annotations[key])
  }
  if (added !== undefined)
    for (const key in added) if (!(key in annotations)) record[snakeCase(key)] = loggable(added[key])
  const now = date.getTime()
  for (const [label, started] of spans) record[`${snakeCase(label)}_ms`] = now - started
  if (cause !== undefined && cause.reasons.length > 0) record["error"] = scrub(Cause.pretty(cause))
  return record
}

/** The fields of one log line, in the order they are written. */
export const logRecord = (options: Logger.Options<unknown>): Record<string, unknown> =>
  recordOf(
    options.date,
    options.logLevel,
    options.message,
    options.fiber.getRef(References.CurrentLogAnnotations),
    undefined,
    options.fiber.getRef(References.CurrentLogSpans),
    options.cause
  )

// This module's loggers, each with the function that writes a line from its record.
const writers = new WeakMap<Logger.Logger<unknown, unknown>, (record: Record<string, unknown>) => void>()

// This module's JSON loggers, each with the function that writes a line's text.
const jsonWriters = new WeakMap<Logger.Logger<unknown, unknown>, (line: string) => void>()

/** How a JSON logger of this module writes a line's text; `undefined` for any other logger. */
export const jsonWriterOf = (logger: Logger.Logger<unknown, unknown>) => jsonWriters.get(logger)

const registered = <A>(logger: Logger.Logger<unknown, A>, write: (record: Record<string, unknown>) => void) => {
  writers.set(logger as Logger.Logger<unknown, unknown>, write)
  return logger
}

/**
 * Logs `message` at `level` with `annotations` added to those of `context`, as
 * `Effect.logWithLevel(level)(message).pipe(Effect.annotateLogs(annotations))` run in `context`
 * would, but without running an effect: the same level filter, clock, annotations, spans, loggers
 * and lines. Only when every logger of `context` is one of this module's (the process's are);
 * otherwise it logs nothing and answers `false`, and the caller logs through effect.
 * Why: the request line is logged for every request, and the effect costs more than the line.
 */
export const logInContext = (
  context: Context.Context<never>,
  level: LogLevel.LogLevel,
  message: string,
  annotations: Readonly<Record<string, unknown>>
): boolean => {
  const loggers = Context.get(context, References.CurrentLoggers)
  for (const logger of loggers) if (!writers.has(logger)) return false
  if (loggers.size === 0 || LogLevel.isGreaterThan(Context.get(context, References.MinimumLogLevel), level)) return true
  const record = recordOf(
    new Date(Context.get(context, Clock.Clock).currentTimeMillisUnsafe()),
    level,
    message,
    Context.get(context, References.CurrentLogAnnotations),
    annotations,
    Context.get(context, References.CurrentLogSpans),
    undefined
  )
  for (const logger of loggers) writers.get(logger)!(record)
  return true
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
export const makeJsonLogger = (write: (line: string) => void = stdout) => {
  const logger = registered(
    Logger.make((options) => write(JSON.stringify(logRecord(options)))),
    (record) => write(JSON.stringify(record))
  )
  jsonWriters.set(logger as Logger.Logger<unknown, unknown>, write)
  return logger
}

export const jsonLogger = makeJsonLogger()

const prettyValue = (value: unknown): string =>
  typeof value === "string" ? (/^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)) : JSON.stringify(value)

const prettyLine = (record: Record<string, unknown>): string => {
  const { time, level, message, error, ...fields } = record
  const rest = Object.entries(fields).map(([key, value]) => `${key}=${prettyValue(value)}`)
  const head = [time, String(level).toUpperCase().padEnd(5), message, ...rest].join(" ")
  return error === undefined ? head : `${head}\n${String(error)}`
}

/** One readable line on stdout: `time LEVEL message key=value ...` (an error's trace on the lines after). */
export const makePrettyLogger = (write: (line: string) => void = stdout) =>
  registered(
    Logger.make((options) => write(prettyLine(logRecord(options)))),
    (record) => write(prettyLine(record))
  )

export const prettyLogger = makePrettyLogger()

/** The logger and minimum level for `settings`, replacing effect's default logger. */
export const loggingLayer = (settings: LogSettings): Layer.Layer<never> =>
  Layer.mergeAll(
    Logger.layer([settings.format === "json" ? jsonLogger : prettyLogger]),
    Layer.succeed(References.MinimumLogLevel, settings.level)
  )
