import { Nanoton } from "@resale/core/money/Nanoton.ts"
import { Effect, Option, Schema, SchemaGetter } from "effect"

/**
 * Rows decoded, not cast: every adapter declares the schema of its rows once, at module level, from
 * the column codecs below and the core's own schemas (branded ids and amounts, status literals, jsonb
 * shapes), and decodes what the driver returns with it. A row that does not decode means the
 * database holds what no migration allows: a defect, never a user error and never a guessed value.
 */

/**
 * An integer column as a safe-integer number: int8 and `count(*)` arrive as `bigint`, int4 as a
 * number, `sum(int8)` as numeric text. A value past the safe-integer range fails the `Int` check
 * instead of being rounded (a bigint of 2^53 or more never converts to a safe integer).
 */
export const IntColumn = Schema.Union([
  Schema.BigInt,
  Schema.Number,
  Schema.String.check(Schema.isPattern(/^-?\d+$/))
]).pipe(
  Schema.decodeTo(Schema.Int, {
    decode: SchemaGetter.transform((value: bigint | number | string) => Number(value)),
    encode: SchemaGetter.transform((n: number) => n)
  })
)

/** An integer column decoded into a branded number of the core (an id, an amount): its checks apply. */
export const intAs = <S extends Schema.Constraint & { readonly Encoded: number }>(to: S) =>
  IntColumn.pipe(Schema.decodeTo(to))

/** A nanoton column (numeric, or int8, read as text or bigint) as the core's exact `Nanoton` bigint. */
export const NanotonColumn = Schema.Union([Schema.BigInt, Schema.String.check(Schema.isPattern(/^\d+$/))]).pipe(
  Schema.decodeTo(Nanoton, {
    decode: SchemaGetter.transform((value: bigint | string) => BigInt(value)),
    encode: SchemaGetter.transform((n: bigint) => n)
  })
)

/** A timestamptz column (the driver gives a `Date`). */
export const DateColumn = Schema.Date

/** What one row schema decodes; each dies on a row that does not fit, naming the table. */
export interface RowDecoder<A> {
  readonly all: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>>
  readonly first: (rows: ReadonlyArray<unknown>) => Effect.Effect<Option.Option<A>>
  /** The first row; no row at all is a defect too (an INSERT … RETURNING that returned nothing). */
  readonly one: (rows: ReadonlyArray<unknown>) => Effect.Effect<A>
}

export class RowDecodeError extends Schema.TaggedError<RowDecodeError>()("RowDecodeError", {
  table: Schema.String,
  message: Schema.String
}) {}

/** Builds the decoders of a row schema; call it once per module (the parser is compiled here, not per row). */
export const rowDecoder = <S extends Schema.ConstraintDecoder<unknown>>(
  table: string,
  schema: S
): RowDecoder<S["Type"]> => {
  const decodeOne = Schema.decodeUnknownEffect(schema)
  const decodeAll = Schema.decodeUnknownEffect(Schema.Array(schema))
  const defect = (error: Schema.SchemaError) => Effect.die(new RowDecodeError({ table, message: error.message }))
  return {
    all: (rows) => Effect.catch(decodeAll(rows), defect),
    first: (rows) =>
      rows.length === 0 ? Effect.succeedNone : Effect.map(Effect.catch(decodeOne(rows[0]), defect), Option.some),
    one: (rows) =>
      rows.length === 0
        ? Effect.die(new RowDecodeError({ table, message: "the statement returned no row" }))
        : Effect.catch(decodeOne(rows[0]), defect)
  }
}

/** A decoder whose rows are then reshaped by `f` (a pure mapping, e.g. columns gathered into a nested value). */
export const mapRows = <A, B>(decoder: RowDecoder<A>, f: (row: A) => B): RowDecoder<B> => ({
  all: (rows) => Effect.map(decoder.all(rows), (decoded) => decoded.map(f)),
  first: (rows) => Effect.map(decoder.first(rows), Option.map(f)),
  one: (rows) => Effect.map(decoder.one(rows), f)
})

const totals = rowDecoder("count", Schema.Struct({ total: IntColumn }))

/**
 * The total of a page read with `count(*) OVER () AS total`: its first row's, 0 for an empty first
 * page, and past the end (no row to carry it) the answer of `count`, a `SELECT count(*) AS total …`.
 */
export const pageTotal = <E, R>(
  rows: ReadonlyArray<unknown>,
  offset: number,
  count: Effect.Effect<ReadonlyArray<unknown>, E, R>
): Effect.Effect<number, E, R> =>
  Effect.flatMap(rows.length > 0 || offset === 0 ? Effect.succeed(rows) : count, (counted) =>
    Effect.map(totals.first(counted), Option.match({ onNone: () => 0, onSome: (row) => row.total }))
  )
