/**
 * What a command prints: the same result as a human table (default) or as JSON for scripts
 * (`--json`). Commands build an `Output`; `main` decides which half goes to stdout. Shoppers' text is
 * escaped for the terminal in both (`TerminalText.ts`): per cell here, and over the whole output in `Runner.ts`.
 */
import { snakeReplacer } from "./SnakeKeys.ts"
import { jsonTerminalSafe, terminalSafe } from "./TerminalText.ts"

export interface Output {
  /** The machine-readable result (`--json`): `@resale/wire` shapes where the API has the record, snake_case names. */
  readonly json: unknown
  /** The human rendering, without a trailing newline. */
  readonly text: string
  /** A file's bytes (e.g. CSV) printed as they are: no newline added after `text`. */
  readonly file?: boolean
}

export const output = (json: unknown, text: string): Output => ({ json, text })

/** A file printed exactly as the server would send it (`resale report --csv` is the panel's download). */
export const fileOutput = (json: unknown, content: string): Output => ({ json, text: content, file: true })

/**
 * JSON text of a result; field names in snake_case as the API's (`SnakeKeys.ts`), bigint becomes a
 * decimal string (sql-pg and nanoton amounts are bigints), and the characters JSON.stringify leaves
 * raw that a terminal obeys (DEL, C1, bidi) are `\uXXXX` escapes.
 */
export const toJson = (value: unknown): string =>
  jsonTerminalSafe(
    JSON.stringify(value, (key, v: unknown) => (typeof v === "bigint" ? v.toString() : snakeReplacer(key, v)), 2)
  )

type Cell = string | number | bigint | boolean | null | undefined | Date

/** A cell as text on one line: empty for null, a compact UTC timestamp for dates, controls escaped. */
export const cell = (value: Cell): string => {
  if (value === null || value === undefined) return ""
  if (value instanceof Date) return formatDate(value)
  return terminalSafe(String(value))
}

/** `2026-11-25 22:16:45Z`: sortable, unambiguous, and short enough for a table. */
export const formatDate = (date: Date): string => `${date.toISOString().slice(0, 19).replace("T", " ")}Z`

/** So'm with thin grouping, e.g. `1 250 000`; the unit is in the column header. */
export const formatUzs = (amount: number): string => {
  const sign = amount < 0 ? "-" : ""
  return (
    sign +
    Math.abs(amount)
      .toString()
      .replace(/\B(?=(\d{3})+(?!\d))/g, " ")
  )
}

/** Signed so'm for ledger movements: `+150 000`, `-2 300`. */
export const formatSignedUzs = (amount: number): string => (amount > 0 ? `+${formatUzs(amount)}` : formatUzs(amount))

/** A plain-text table with a header row; numbers right-aligned. */
export const table = (headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<Cell>>): string => {
  const texts = rows.map((row) => row.map(cell))
  const rightAligned = headers.map(
    (_, i) =>
      rows.length > 0 &&
      rows.every((row) => {
        const v = row[i]
        return (
          typeof v === "number" ||
          typeof v === "bigint" ||
          (typeof v === "string" && /^[+-]?[\d ]+$/.test(v)) ||
          v == null
        )
      }) &&
      rows.some((row) => row[i] != null)
  )
  const widths = headers.map((h, i) => Math.max(h.length, ...texts.map((row) => (row[i] ?? "").length)))
  const line = (values: ReadonlyArray<string>) =>
    values
      .map((v, i) => (rightAligned[i] ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd()
  return [line(headers), ...texts.map(line)].join("\n")
}

/** A list page: the table, or a note that nothing matched, plus how many of how many are shown. */
export const listing = (
  headers: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  page: { readonly total: number; readonly offset: number },
  noun: string
): string => {
  if (rows.length === 0)
    return page.total === 0 ? `No ${noun}.` : `No ${noun} at offset ${page.offset} (${page.total} in all).`
  const shown =
    rows.length === page.total
      ? `${page.total} ${noun}`
      : `${noun} ${page.offset + 1}-${page.offset + rows.length} of ${page.total} (see --offset / --limit)`
  return `${table(headers, rows)}\n\n${shown}`
}

/** Aligned `label: value` lines for one record. */
export const fields = (pairs: ReadonlyArray<readonly [string, Cell]>): string => {
  const width = Math.max(...pairs.map(([label]) => label.length))
  return pairs.map(([label, value]) => `${`${label}:`.padEnd(width + 1)} ${cell(value)}`.trimEnd()).join("\n")
}
