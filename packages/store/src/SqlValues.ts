import { Effect } from "effect"
import type { SqlError } from "effect/sql/SqlError"

/**
 * Plain conversions of driver values, for the few statements not read through a row schema yet
 * (`PgReportFigures`): a range check instead of rounding. Rows of the
 * core's types (branded ids, amounts, literals) are decoded with schemas: see `Rows.ts`.
 */

/** A bigint / int column as a safe-integer number. */
export const int = (value: bigint | number | string): number => {
  const n = typeof value === "number" ? value : Number(value)
  if (!Number.isSafeInteger(n) || BigInt(n) !== BigInt(value)) {
    throw new RangeError(`database integer ${String(value)} is outside the safe-integer range`)
  }
  return n
}

/** A nullable bigint / int column. */
export const intOrNull = (value: bigint | number | string | null): number | null => value === null ? null : int(value)

/** A timestamptz column (sql-pg already returns `Date`; text is accepted for safety). */
export const date = (value: Date | string): Date => value instanceof Date ? value : new Date(value)

export const dateOrNull = (value: Date | string | null): Date | null => value === null ? null : date(value)

/**
 * Storage failures (connection lost, a constraint the adapter did not expect) are defects at the port
 * edge: the ports' error channels carry domain errors only.
 */
export const orDieSql = <A, E, R>(self: Effect.Effect<A, E | SqlError, R>): Effect.Effect<A, Exclude<E, SqlError>, R> =>
  Effect.catchIf(
    self,
    (e): e is SqlError => typeof e === "object" && e !== null && "_tag" in e && e._tag === "SqlError",
    (e) => Effect.die(e)
  ) as Effect.Effect<A, Exclude<E, SqlError>, R>

/** Rows of a `count(*) OVER ()` page query: the total, or 0 when the page is empty. */
export const totalOf = (rows: ReadonlyArray<{ readonly total: bigint | number | string }>): number =>
  rows[0] === undefined ? 0 : int(rows[0].total)
