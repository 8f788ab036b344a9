/**
 * Request lines without a record object per line: the JSON text of the lines of one shape (same
 * context, level and fixed fields) is made once, and each line only joins it with its own time,
 * message and a few values, scrubbed and escaped as `logInContext` would. Why: under load the
 * request line's objects and strings cost the server more as garbage than their instructions.
 */
import { Clock, Context, LogLevel, References } from "effect"
import { jsonWriterOf, recordOf, snakeCase } from "./Logging.ts"
import { scrub, secretsGeneration } from "./LogRedaction.ts"

/** A field value that differs between lines of one shape (`undefined` leaves the field out). */
export type Varying = string | number | boolean | null | undefined

/**
 * The JSON line that `logInContext` writes, prepared for lines differing only in their time, message
 * and the values of a few fields: the rest (level, the context's annotations, the fixed fields, keys
 * and their order) is serialized once, by the same code as every line (`recordOf`).
 */
export interface LineShape {
  /** The fixed text before each varying value, in the line's order, and the text after the last. */
  readonly pieces: ReadonlyArray<string>
  /** Which value goes after each piece: 0 the time, 1 the message, 2.. the varying fields in order. */
  readonly slots: ReadonlyArray<number>
  /** Each slot's `"key":` text, left out with its value when that value is `undefined`. */
  readonly keys: ReadonlyArray<string>
  readonly writers: ReadonlyArray<(line: string) => void>
  readonly clock: Clock.Clock
  readonly generation: number
  /**
   * Each slot's last value and its JSON text: under load most lines of a shape repeat the path, the
   * client and the message, which are then scrubbed and escaped once. Valid while `generation` is.
   */
  readonly lastValues: Array<Varying>
  readonly lastTexts: Array<string>
}

// Stand-ins for the varying values while the fixed text is made; no scrubbing or escaping changes them.
const marker = (slot: number) => `\u0000${slot}\u0000`

/**
 * The shape of the lines `logInContext(context, level, message, fields)` writes, where `fields` has
 * every field in its order and `varying` names those whose values change (their values here are
 * ignored). `undefined` when the fast way does not apply (a logger that is not one of this module's
 * JSON loggers, log spans, a varying field also annotated in the context); `null` when the minimum
 * level drops these lines.
 */
export const shapeLine = (
  context: Context.Context<never>,
  level: LogLevel.LogLevel,
  fields: Readonly<Record<string, unknown>>,
  varying: ReadonlyArray<string>
): LineShape | null | undefined => {
  const loggers = Context.get(context, References.CurrentLoggers)
  const out: Array<(line: string) => void> = []
  for (const logger of loggers) {
    const write = jsonWriterOf(logger)
    if (write === undefined) return undefined
    out.push(write)
  }
  const annotations = Context.get(context, References.CurrentLogAnnotations)
  if (Context.get(context, References.CurrentLogSpans).length > 0 || varying.some((key) => key in annotations))
    return undefined
  if (out.length === 0 || LogLevel.isGreaterThan(Context.get(context, References.MinimumLogLevel), level)) return null
  const generation = secretsGeneration()
  const added: Record<string, unknown> = { ...fields }
  varying.forEach((key, i) => (added[key] = marker(i + 2)))
  const record = recordOf(new Date(0), level, marker(1), annotations, added, [], undefined)
  record["time"] = marker(0)
  const text = JSON.stringify(record)
  const found = Array.from({ length: varying.length + 2 }, (_, slot) => ({
    slot,
    at: text.indexOf(JSON.stringify(marker(slot)))
  }))
  if (found.some(({ at }) => at === -1)) return undefined
  found.sort((a, b) => a.at - b.at)
  const pieces: Array<string> = []
  const keys: Array<string> = []
  let from = 0
  for (const { at, slot } of found) {
    const key = slot < 2 ? "" : `,${JSON.stringify(snakeCase(varying[slot - 2]!))}:`
    if (!text.slice(from, at).endsWith(key)) return undefined
    pieces.push(text.slice(from, at - key.length))
    keys.push(key)
    from = at + JSON.stringify(marker(slot)).length
  }
  pieces.push(text.slice(from))
  return {
    pieces,
    slots: found.map(({ slot }) => slot),
    keys,
    writers: out,
    clock: Context.get(context, Clock.Clock),
    generation,
    lastValues: [],
    lastTexts: []
  }
}

// The time of the last line, as JSON (not scrubbed, as in every line): many lines share a millisecond.
let lastMillis = Number.NaN
let lastTime = ""

/** Whether JSON writes `text` as it is between quotes (printable ASCII but `"` and `\\`): ids, paths, addresses. */
const plain = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false
  }
  return true
}

const valueText = (value: Varying): string => {
  if (typeof value !== "string") return JSON.stringify(value)
  const text = scrub(value)
  return plain(text) ? `"${text}"` : JSON.stringify(text)
}
const values: Array<Varying> = []

/**
 * Writes a line of `shape` with these values of its varying fields (in `shapeLine`'s order), as
 * `logInContext` would write it. `false` (nothing written) when a secret was registered since the
 * shape was made: make it again.
 */
export const logShaped = (
  shape: LineShape,
  message: string,
  a?: Varying,
  b?: Varying,
  c?: Varying,
  d?: Varying,
  e?: Varying
): boolean => {
  if (shape.generation !== secretsGeneration()) return false
  const now = shape.clock.currentTimeMillisUnsafe()
  if (now !== lastMillis) {
    lastMillis = now
    lastTime = `"${new Date(now).toISOString()}"`
  }
  values[1] = message
  values[2] = a
  values[3] = b
  values[4] = c
  values[5] = d
  values[6] = e
  const { pieces, slots, keys, lastValues, lastTexts } = shape
  let line = pieces[0]!
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!
    if (slot === 0) {
      line = line + lastTime + pieces[i + 1]!
      continue
    }
    const value = values[slot]
    // A left-out field takes its key (and the comma before it) with it.
    if (value === undefined) {
      line = line + pieces[i + 1]!
      continue
    }
    if (lastValues[slot] !== value || lastTexts[slot] === undefined) {
      lastValues[slot] = value
      lastTexts[slot] = keys[i]! + valueText(value)
    }
    line = line + lastTexts[slot] + pieces[i + 1]!
  }
  for (const write of shape.writers) write(line)
  return true
}
