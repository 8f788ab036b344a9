import { Context, type Effect } from "effect"
import type { InfoLookupQuotaExceeded } from "../accounts/AccountErrors.ts"
import type { UserId } from "../ids.ts"

/** Per-user, per-day counters of `/v2/api/getInfo` calls (day = UTC date "YYYY-MM-DD"). */
export class InfoLookups extends Context.Service<
  InfoLookups,
  {
    /** How many lookups the user made on `day`. */
    readonly count: (userId: UserId, day: string) => Effect.Effect<number>
    /**
     * Counts one lookup if fewer than `limit` were made on `day`, atomically (PG: upsert with
     * `WHERE count < limit`); returns the new count. Fails `InfoLookupQuotaExceeded` otherwise,
     * without counting.
     */
    readonly take: (userId: UserId, day: string, limit: number) => Effect.Effect<number, InfoLookupQuotaExceeded>
  }
>()("core/ports/InfoLookups") {}
