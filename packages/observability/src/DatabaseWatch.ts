/**
 * Logs when the database stops answering and when it answers again (one line each, not one per
 * failed query), by pinging it every few seconds for the life of the process.
 */
import { Duration, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/** Whether the database answers `SELECT 1` within three seconds. */
export const pingDatabase = Effect.gen(function* () {
  const sql = yield* SqlClient
  return yield* sql`SELECT 1 AS ok`.pipe(
    Effect.timeout("3 seconds"),
    Effect.as(true),
    Effect.catchCause(() => Effect.succeed(false))
  )
})

/** Pings every `every` and logs `database lost` / `database back` on each change. */
export const databaseWatch = (every: Duration.Input = "5 seconds"): Layer.Layer<never, never, SqlClient> =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      let up = true
      let lostAt = 0
      const check = Effect.gen(function* () {
        const now = yield* pingDatabase
        if (now === up) return
        up = now
        if (!now) {
          lostAt = Date.now()
          yield* Effect.logError("database lost: it does not answer")
        } else {
          yield* Effect.logInfo("database back").pipe(Effect.annotateLogs({ down_ms: Date.now() - lostAt }))
        }
      })
      yield* Effect.forkScoped(Effect.repeat(check, Schedule.spaced(Duration.fromInputUnsafe(every))))
    })
  )
