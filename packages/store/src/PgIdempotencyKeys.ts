import { IDEMPOTENCY_KEY_TTL_MS, type IdempotencyBegin } from "@resale/core"
import { IdempotencyKeys } from "@resale/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** An in-progress key older than this is a crashed request's: the next request with it takes it over. */
const ABANDONED_AFTER_MS = 10 * 60 * 1000

/** The columns `begin` compares: which endpoint and request hold the key, and whether it has an answer. */
const keyRows = rowDecoder(
  "idempotency_keys",
  Schema.Struct({
    endpoint: Schema.String,
    request_hash: Schema.String,
    status: Schema.Literals(["in_progress", "completed"]),
    /** The stored answer (jsonb), replayed as it was stored. */
    response: Schema.Unknown
  })
)

/**
 * `IdempotencyKeys` on `idempotency_keys` (primary key (scope, key)). `begin` is one statement: insert the
 * claim, or take over an abandoned claim with the same request, or an expired record (older than 24 h)
 * whatever it held, and report which row won. Concurrent
 * first requests with one key serialise on the primary key: exactly one of them gets `New`.
 */
export const PgIdempotencyKeys = {
  layer: Layer.effect(
    IdempotencyKeys,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const begin = Effect.fn("IdempotencyKeys.begin")(function* (
        scope: string,
        key: string,
        endpoint: string,
        requestHash: string,
        now: Date
      ) {
        const abandonedBefore = new Date(now.getTime() - ABANDONED_AFTER_MS)
        const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS)
        // RETURNING yields a row for a fresh insert or a takeover, none when someone else holds the key.
        const claimed = yield* sql`
          INSERT INTO idempotency_keys (scope, key, endpoint, request_hash, status, started_at)
          VALUES (${scope}, ${key}, ${endpoint}, ${requestHash}, 'in_progress', ${now})
          ON CONFLICT (scope, key) DO UPDATE SET
            started_at = EXCLUDED.started_at, endpoint = EXCLUDED.endpoint, request_hash = EXCLUDED.request_hash,
            status = 'in_progress', response = NULL, completed_at = NULL
            WHERE idempotency_keys.started_at <= ${expiredBefore}
              OR (idempotency_keys.status = 'in_progress'
                AND idempotency_keys.endpoint = EXCLUDED.endpoint
                AND idempotency_keys.request_hash = EXCLUDED.request_hash
                AND idempotency_keys.started_at <= ${abandonedBefore})
          RETURNING 1`
        if (claimed.length > 0) return { _tag: "New" } satisfies IdempotencyBegin
        const [row] = yield* keyRows.all(
          yield* sql`
          SELECT endpoint, request_hash, status, response
          FROM idempotency_keys WHERE scope = ${scope} AND key = ${key}`
        )
        // Abandoned between the two statements: the caller may simply retry.
        if (row === undefined) return { _tag: "InProgress" } satisfies IdempotencyBegin
        if (row.endpoint !== endpoint) return { _tag: "Conflict", reason: "OtherEndpoint" } satisfies IdempotencyBegin
        if (row.request_hash !== requestHash)
          return { _tag: "Conflict", reason: "OtherRequest" } satisfies IdempotencyBegin
        if (row.status === "completed") return { _tag: "Replay", response: row.response } satisfies IdempotencyBegin
        return { _tag: "InProgress" } satisfies IdempotencyBegin
      }, orDieSql)

      const complete = Effect.fn("IdempotencyKeys.complete")(function* (
        scope: string,
        key: string,
        response: unknown,
        now: Date
      ) {
        const encoded = JSON.stringify(response === undefined ? null : response)
        // No row: the claim was abandoned and dropped; a retry then runs as new (its effects are idempotent).
        yield* sql`
          UPDATE idempotency_keys SET status = 'completed', response = ${encoded}::jsonb, completed_at = ${now}
          WHERE scope = ${scope} AND key = ${key}`
      }, orDieSql)

      const abandon = Effect.fn("IdempotencyKeys.abandon")(function* (scope: string, key: string) {
        yield* sql`DELETE FROM idempotency_keys WHERE scope = ${scope} AND key = ${key} AND status = 'in_progress'`
      }, orDieSql)

      const prune = Effect.fn("IdempotencyKeys.prune")(function* (before: Date) {
        const rows = yield* sql`
          DELETE FROM idempotency_keys WHERE started_at < ${before} RETURNING key`
        return rows.length
      }, orDieSql)

      return IdempotencyKeys.of({ begin, complete, abandon, prune })
    })
  )
} as const
