import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { IntColumn, rowDecoder } from "./Rows.ts"

const hitRows = rowDecoder("direct_rate_windows", Schema.Struct({ hits: IntColumn }))

/**
 * Per-minute request counts of the direct surface's clients in `direct_rate_windows`, shared by every
 * instance of the server. Not a core port: a rate limit is an HTTP concern, not a money rule.
 */
export const PgDirectRateWindows = {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient
    /** Counts one request of `client` in the window starting at `windowStart`; the window's count so far. */
    const hit = (client: string, windowStart: Date) =>
      sql`
        INSERT INTO direct_rate_windows (client, window_start, hits) VALUES (${client}, ${windowStart}, 1)
        ON CONFLICT (client, window_start) DO UPDATE SET hits = direct_rate_windows.hits + 1
        RETURNING hits`.pipe(
        Effect.orDie,
        Effect.flatMap(hitRows.one),
        Effect.map((row) => row.hits)
      )
    /** Deletes the windows that started before `before`. */
    const prune = (before: Date) =>
      sql`DELETE FROM direct_rate_windows WHERE window_start < ${before}`.pipe(Effect.asVoid, Effect.orDie)
    return { hit, prune } as const
  })
} as const
