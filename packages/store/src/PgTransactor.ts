import { Transactor } from "@resale/core/ports"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { isSqlError, type SqlError } from "effect/sql/SqlError"

// PostgreSQL rolled the whole transaction back and says that running it again may succeed.
const isRetryable = (error: SqlError): boolean =>
  error.reason._tag === "DeadlockError" || error.reason._tag === "SerializationError"

const dieOnSqlError = <A, E, R>(self: Effect.Effect<A, E | SqlError, R>): Effect.Effect<A, E, R> =>
  Effect.catchIf(self, isSqlError, (e) => Effect.die(e)) as Effect.Effect<A, E, R>

/**
 * `Transactor` over `sql.withTransaction`: BEGIN/COMMIT on the outermost call, a SAVEPOINT for nested ones
 * (an inner failure the outer effect catches rolls back only the inner part). Every port call made inside
 * runs on the transaction's connection. An outermost transaction that PostgreSQL aborted as a deadlock
 * victim or serialisation failure is run again (at most 3 times); any other storage failure is a defect.
 */
export const PgTransactor = {
  layer: Layer.effect(
    Transactor,
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const withTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.gen(function* () {
          const outer = yield* Effect.serviceOption(sql.transactionService)
          if (Option.isSome(outer)) return yield* dieOnSqlError(sql.withTransaction(effect))
          // The adapters turn a deadlock inside a statement into a defect: bring it back as a failure to retry it.
          // At once, without a delay: the other transaction already went on, and no clock is involved.
          const once = sql
            .withTransaction(effect)
            .pipe(
              Effect.catchDefect((defect) =>
                isSqlError(defect) && isRetryable(defect) ? Effect.fail(defect) : Effect.die(defect)
              )
            )
          return yield* dieOnSqlError(
            once.pipe(Effect.retry({ while: (e) => isSqlError(e) && isRetryable(e), times: 3 }))
          )
        }).pipe(Effect.withSpan("Transactor.withTransaction"))
      return Transactor.of({ withTransaction })
    })
  )
} as const
