/**
 * The last guard of `--json`: every field name the product prints is snake_case, as the API's are
 * (`premium3MonthUzs` -> `premium_3_month_uzs`). Commands print the `@resale/wire` shapes where the
 * API has the record; this catches the rest (reports, payouts, backups...) and anything added later.
 */

const DATA_KEYS: unique symbol = Symbol("resale/cli/dataKeys")

/**
 * Marks an object whose keys are data (ids, usernames, table names), not field names: its keys are
 * printed as they are and only its values are converted. Without the mark a username key such as
 * `AliceB` would be printed as `alice_b`, another name than the user's.
 */
export const keyedByData = <A extends object>(map: A): A =>
  Object.defineProperty(map, DATA_KEYS, { value: true, enumerable: false })

const isKeyedByData = (value: object): boolean => Object.hasOwn(value, DATA_KEYS)

// Only identifier-shaped names are field names; `@alice`, `wallet:EQ..` or `42` are left alone.
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]*$/

/**
 * camelCase to snake_case, digits inside a name split off like the API's (`premium3MonthUzs` ->
 * `premium_3_month_uzs`) and trailing ones kept (`sha256`, `highloadV3` -> `highload_v3`):
 * `txHash` -> `tx_hash`, `HTTPStatus` -> `http_status`; snake_case stays as it is.
 */
export const snakeCase = (key: string): string =>
  FIELD_NAME.test(key)
    ? key
        .replace(/([a-z])([A-Z])/g, "$1_$2")
        .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
        .replace(/([A-Za-z])(\d+)(?=[A-Za-z])/g, "$1_$2")
        .replace(/(\d)([A-Za-z])/g, "$1_$2")
        .toLowerCase()
    : key

/**
 * A `JSON.stringify` replacer that prints every object's field names in snake_case. It runs after
 * `toJSON` (dates are strings by then) and on every level, so nested records are covered; an object
 * marked `keyedByData` keeps its keys. Two names that would print alike are a bug: it throws.
 */
export const snakeReplacer = (_key: string, value: unknown): unknown => {
  if (typeof value !== "object" || value === null || Array.isArray(value) || isKeyedByData(value)) return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    const name = snakeCase(key)
    if (Object.hasOwn(out, name)) throw new Error(`two fields print as "${name}"`)
    out[name] = inner
  }
  return out
}
