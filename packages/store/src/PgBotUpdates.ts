import { BotUpdates } from "@resale/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { orDieSql } from "./SqlValues.ts"

/** How long handled update ids are kept: Telegram gives up re-delivering long before. */
const KEEP_DAYS = 7

/**
 * `BotUpdates` on `bot_updates` (primary key update_id): the insert that wins is the first sighting;
 * a concurrent duplicate waits for it and then inserts nothing.
 */
export const PgBotUpdates = {
  layer: Layer.effect(
    BotUpdates,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const markSeen = Effect.fn("BotUpdates.markSeen")(function* (updateId: number, now: Date) {
        const rows = yield* sql`
          INSERT INTO bot_updates (update_id, seen_at) VALUES (${updateId}, ${now})
          ON CONFLICT (update_id) DO NOTHING
          RETURNING update_id`
        if (rows.length > 0 && updateId % 1000 === 0) {
          // Now and then, forget ids old enough that Telegram can no longer re-deliver them.
          yield* sql`DELETE FROM bot_updates WHERE seen_at < ${new Date(now.getTime() - KEEP_DAYS * 86_400_000)}`
        }
        return rows.length > 0
      }, orDieSql)

      return BotUpdates.of({ markSeen })
    })
  )
} as const
