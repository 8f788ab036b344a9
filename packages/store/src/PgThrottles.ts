import { Throttles } from "@resale/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, IntColumn, rowDecoder } from "./Rows.ts"

const hitRows = rowDecoder("direct_rate_windows", Schema.Struct({ hits: IntColumn }))
const failureRows = rowDecoder("token_failures", Schema.Struct({ failures: IntColumn, last_failure_at: DateColumn }))

/**
 * `Throttles` on `direct_rate_windows` (requests per client and minute) and `token_failures` (wrong
 * tokens per guard and client): each count is one upsert, atomic under concurrent servers.
 */
export const PgThrottles = {
  layer: Layer.effect(
    Throttles,
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const toFailures = (row: { failures: number; last_failure_at: Date }) => ({
        failures: row.failures,
        lastFailureAt: row.last_failure_at
      })
      return Throttles.of({
        countRequest: (client, windowStart) =>
          sql`
            INSERT INTO direct_rate_windows (client, window_start, hits) VALUES (${client}, ${windowStart}, 1)
            ON CONFLICT (client, window_start) DO UPDATE SET hits = direct_rate_windows.hits + 1
            RETURNING hits`.pipe(
            Effect.orDie,
            Effect.flatMap(hitRows.one),
            Effect.map((row) => row.hits)
          ),
        forgetRequests: (before) =>
          sql`DELETE FROM direct_rate_windows WHERE window_start < ${before}`.pipe(Effect.asVoid, Effect.orDie),
        countFailure: (guard, client, at, forgetBefore) =>
          sql`
            INSERT INTO token_failures (guard, client, failures, last_failure_at) VALUES (${guard}, ${client}, 1, ${at})
            ON CONFLICT (guard, client) DO UPDATE SET
              failures = CASE WHEN token_failures.last_failure_at < ${forgetBefore} THEN 1
                              ELSE token_failures.failures + 1 END,
              last_failure_at = greatest(token_failures.last_failure_at, EXCLUDED.last_failure_at)
            RETURNING failures, last_failure_at`.pipe(
            Effect.orDie,
            Effect.flatMap(failureRows.one),
            Effect.map(toFailures)
          ),
        failures: (guard, client) =>
          sql`SELECT failures, last_failure_at FROM token_failures WHERE guard = ${guard} AND client = ${client}`.pipe(
            Effect.orDie,
            Effect.flatMap(failureRows.first),
            Effect.map((row) => (row._tag === "Some" ? toFailures(row.value) : undefined))
          ),
        clearFailures: (guard, client) =>
          sql`DELETE FROM token_failures WHERE guard = ${guard} AND client = ${client}`.pipe(
            Effect.asVoid,
            Effect.orDie
          ),
        forgetFailures: (before) =>
          sql`DELETE FROM token_failures WHERE last_failure_at < ${before}`.pipe(Effect.asVoid, Effect.orDie)
      })
    })
  )
} as const
