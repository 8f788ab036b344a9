import { Receipts } from "@resale/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** A stored receipt file: its bytes (bytea) and content type. */
const fileRows = rowDecoder(
  "receipts",
  Schema.Struct({
    bytes: Schema.Uint8Array,
    contentType: Schema.String
  }).pipe(Schema.encodeKeys({ contentType: "content_type" }))
)

/**
 * `Receipts` as bytea rows in `receipts`: the files travel with the database (backups, several app
 * instances) and are small (the use case limits their size).
 */
export const PgReceipts = {
  layer: Layer.effect(
    Receipts,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const put = Effect.fn("Receipts.put")(function* (key: string, bytes: Uint8Array, contentType: string) {
        // Keys are never reused; a repeated put of one key (a retried request) keeps the first file.
        yield* sql`
          INSERT INTO receipts (key, content_type, size, bytes) VALUES (${key}, ${contentType}, ${bytes.length}, ${bytes})
          ON CONFLICT (key) DO NOTHING`
      }, orDieSql)

      const get = Effect.fn("Receipts.get")(function* (key: string) {
        return yield* fileRows.first(yield* sql`SELECT bytes, content_type FROM receipts WHERE key = ${key}`)
      }, orDieSql)

      return Receipts.of({ put, get })
    })
  )
} as const
