import { Transactor } from "@resale/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { isSqlError, type SqlError } from "effect/sql/SqlError"

// PostgreSQL rolled the whole transaction back and says that running it again may succeed.
const isRetryable = (error: SqlError): boolean =>
  error.reason._tag === "DeadlockError" || error.reason._tag === "SerializationError"

/**
 * `Transactor` over `sql.withTransaction`: BEGIN/COMMIT on the outermost call, a SAVEPOINT for nested ones
 * (an inner failure the outer effect catches rolls back only the inner part). Every port call made inside
 * runs on the transaction's connection. An outermost transaction that PostgreSQL aborted as a deadlock
 * victim or serialisation failure is run again (at most 3 times); any other storage failure is a defect.
 */
export const PgTransactor = {
  layer: Layer.effect(
    Transactor,
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const withTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.gen(function*() {
          const outer = yield* Effect.serviceOption(sql.transactionService)
          const once = sql.withTransaction(effect)
          const run = Option.isSome(outer)
            ? once
            // At once, without a delay: the other transaction already went on, and no clock is involved.
            : once.pipe(Effect.retry({ while: (e) => isSqlError(e) && isRetryable(e), times: 3 }))
          return yield* Effect.catchIf(run, isSqlError, (e) => Effect.die(e)) as Effect.Effect<A, E, R>
        }).pipe(Effect.withSpan("Transactor.withTransaction"))
      return Transactor.of({ withTransaction })
    })
  )
} as const
