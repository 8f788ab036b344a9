import type { SignedUzs, Uzs } from "@resale/core"
import { Effect } from "effect"
import type { SqlError } from "effect/sql/SqlError"

/**
 * The edge between PostgreSQL values and the core's types. sql-pg returns int8 as `bigint`; the core's
 * ids and so'm amounts are safe-integer numbers, so every conversion checks the range instead of
 * silently rounding: a value that does not fit is a defect, never a wrong amount.
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

/** A positive identity column as a branded id. */
export const id = <I extends number>(value: bigint | number | string): I => {
  const n = int(value)
  if (n <= 0) throw new RangeError(`database id ${n} is not positive`)
  return n as I
}

export const idOrNull = <I extends number>(value: bigint | number | string | null): I | null =>
  value === null ? null : id<I>(value)

/** A non-negative so'm column. */
export const uzs = (value: bigint | number | string): Uzs => {
  const n = int(value)
  if (n < 0) throw new RangeError(`database amount ${n} is negative where so'm must not be`)
  return n as Uzs
}

export const uzsOrNull = (value: bigint | number | string | null): Uzs | null => value === null ? null : uzs(value)

/** A signed so'm column (a ledger movement). */
export const signedUzs = (value: bigint | number | string): SignedUzs => int(value) as SignedUzs

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
