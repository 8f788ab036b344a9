/**
 * Compares a documented example with a real answer: ids, timestamps, request ids and secrets by
 * their shape (what differs from run to run), everything else by value, and the same keys both ways.
 */
type Json = Record<string, unknown>

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** How a field whose value differs per run must look: `undefined` when it is compared by value. */
const shapeOf = (key: string): ((value: unknown) => boolean) | undefined => {
  if (key === "request_id") return (v) => typeof v === "string" && UUID.test(v)
  if (key === "at" || key.endsWith("_at") || key === "timestamp") return (v) => typeof v === "string" && ISO.test(v)
  if (
    key === "id" ||
    key.endsWith("_id") ||
    key === "next_cursor" ||
    key === "cursor" ||
    key === "possible_duplicate_of"
  )
    return (v) => (typeof v === "number" && Number.isInteger(v) && v >= 1) || (typeof v === "string" && v !== "")
  if (key === "day") return (v) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v)
  // The sandbox's pictures are served from its own (per-run) address.
  if (key === "photo_url") return (v) => typeof v === "string" && /^https?:\/\/\S+$/.test(v)
  if (key === "secret") return (v) => typeof v === "string" && /^whsec_[A-Za-z0-9+/=]+$/.test(v)
  if (key === "api_key") return (v) => typeof v === "string" && /^rk_/.test(v)
  if (key === "prefix") return (v) => typeof v === "string" && /^rk_/.test(v)
  return undefined
}

/** A field's shape check by its name, for answers whose other fields vary per run (chain amounts, addresses). */
export type Shapes = Readonly<Record<string, (value: unknown) => boolean>>

/** Where `actual` differs from `example`, one line each (empty when they match). */
export const differences = (example: unknown, actual: unknown, at = "$", shapes: Shapes = {}): Array<string> => {
  if (Array.isArray(example)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${JSON.stringify(actual)}`]
    if (example.length !== actual.length)
      return [`${at}: ${example.length} items documented, ${actual.length} answered`]
    return example.flatMap((item, i) => differences(item, actual[i], `${at}[${i}]`, shapes))
  }
  if (example !== null && typeof example === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual))
      return [`${at}: expected an object, got ${JSON.stringify(actual)}`]
    const e = example as Json
    const a = actual as Json
    const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])]
    return keys.flatMap((key) => {
      const path = `${at}.${key}`
      if (!(key in a)) return [`${path}: documented, not answered`]
      if (!(key in e)) return [`${path}: answered (${JSON.stringify(a[key])}), not documented`]
      // A shape is a scalar's (a list named like a time, `fund_at`, is compared item by item).
      const shape = typeof e[key] === "object" ? undefined : (shapes[key] ?? shapeOf(key))
      if (shape !== undefined && e[key] !== null && a[key] !== null)
        return shape(a[key]) && shape(e[key])
          ? []
          : [`${path}: ${JSON.stringify(a[key])} is not shaped as ${JSON.stringify(e[key])}`]
      return differences(e[key], a[key], path, shapes)
    })
  }
  return Object.is(example, actual)
    ? []
    : [`${at}: documented ${JSON.stringify(example)}, answered ${JSON.stringify(actual)}`]
}

/** Where an answer differs from its documented status and body (empty when both match). */
export const answerDifferences = (
  example: unknown,
  status: number,
  answer: { readonly status: number; readonly json: unknown; readonly text: string }
): Array<string> =>
  answer.status === status
    ? differences(example, answer.json)
    : [`status ${answer.status}, expected ${status}: ${answer.text}`]
