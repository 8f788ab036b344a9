import { InfoLookupQuotaExceeded, type UserId } from "@resale/core"
import { InfoLookups } from "@resale/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { IntColumn, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

const countRows = rowDecoder("info_lookups", Schema.Struct({ count: IntColumn }))

/**
 * `InfoLookups` on `info_lookups` (one counter per user and UTC day). `take` is one upsert that only
 * counts while below the limit, so concurrent lookups can never exceed it.
 */
export const PgInfoLookups = {
  layer: Layer.effect(
    InfoLookups,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const count = Effect.fn("InfoLookups.count")(function* (userId: UserId, day: string) {
        const [row] = yield* countRows.all(
          yield* sql`
          SELECT count FROM info_lookups WHERE user_id = ${userId} AND day = ${day}::date`
        )
        return row?.count ?? 0
      }, orDieSql)

      const take = Effect.fn("InfoLookups.take")(function* (userId: UserId, day: string, limit: number) {
        if (limit <= 0) return yield* new InfoLookupQuotaExceeded({ limit, day })
        const [row] = yield* countRows.all(
          yield* sql`
          INSERT INTO info_lookups (user_id, day, count) VALUES (${userId}, ${day}::date, 1)
          ON CONFLICT (user_id, day) DO UPDATE SET count = info_lookups.count + 1
            WHERE info_lookups.count < ${limit}
          RETURNING count`
        )
        if (row === undefined) return yield* new InfoLookupQuotaExceeded({ limit, day })
        return row.count
      }, orDieSql)

      return InfoLookups.of({ count, take })
    })
  )
} as const
