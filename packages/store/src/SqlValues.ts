import { Effect } from "effect"
import type { SqlError } from "effect/sql/SqlError"

/**
 * Storage failures (connection lost, a constraint the adapter did not expect) are defects at the port
 * edge: the ports' error channels carry domain errors only. (Rows of the core's types are decoded
 * with schemas: see `Rows.ts`.)
 */
export const orDieSql = <A, E, R>(self: Effect.Effect<A, E | SqlError, R>): Effect.Effect<A, Exclude<E, SqlError>, R> =>
  Effect.catchIf(
    self,
    (e): e is SqlError => typeof e === "object" && e !== null && "_tag" in e && e._tag === "SqlError",
    (e) => Effect.die(e)
  ) as Effect.Effect<A, Exclude<E, SqlError>, R>
