import { IDEMPOTENCY_KEY_TTL_MS, type IdempotencyBegin } from "@resale/core"
import { IdempotencyKeys } from "@resale/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/**
 * A claim committed on its own (before claims were bound to their transaction, or a `begin` outside
 * one) belongs to no session: only its age tells that its request died, so it is taken over after this.
 */
const ABANDONED_AFTER_MS = 10 * 60 * 1000

/** The key's advisory lock: one bigint per (scope, key); a rare collision only reports a busy key. */
const lockKey = (scope: string, key: string) => `idempotency:${JSON.stringify([scope, key])}`

/** The columns `begin` compares: which endpoint and request hold the key, and whether it has an answer. */
const keyRows = rowDecoder(
  "idempotency_keys",
  Schema.Struct({
    endpoint: Schema.String,
    request_hash: Schema.String,
    status: Schema.Literals(["in_progress", "completed"]),
    /** The stored answer (jsonb), replayed as it was stored. */
    response: Schema.Unknown,
    started_at: DateColumn
  })
)

/**
 * `IdempotencyKeys` on `idempotency_keys` (primary key (scope, key)). `begin`, inside the caller's
 * transaction, first takes the key's transaction-scoped advisory lock without waiting: held by another
 * live transaction, the key is in progress. The holder's claim row is uncommitted until its answer
 * commits with it, so a holder that dies (its connection drops, PostgreSQL rolls it back) frees the
 * key at once and leaves nothing behind, and one that committed left its answer to replay.
 * Only one transaction at a time writes a key's row, so nobody ever waits on it.
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
        // One statement: the lock (a materialised CTE, evaluated once and before the row is touched),
        // then the claim: a fresh insert, or a takeover of an expired record or of a session-less claim.
        // RETURNING yields a row for a claim, none when the lock is held elsewhere or the record stays.
        const claimed = yield* sql`
          WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtextextended(${lockKey(scope, key)}, 0)) AS held)
          INSERT INTO idempotency_keys (scope, key, endpoint, request_hash, status, started_at)
          SELECT ${scope}, ${key}, ${endpoint}, ${requestHash}, 'in_progress', ${now} FROM lock WHERE held
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
        // A plain read never waits: a live holder's uncommitted claim is simply not seen.
        const [row] = yield* keyRows.all(
          yield* sql`
          SELECT endpoint, request_hash, status, response, started_at
          FROM idempotency_keys WHERE scope = ${scope} AND key = ${key}`
        )
        // No record, or an expired one we did not take over: another transaction holds the key.
        if (row === undefined || row.started_at <= expiredBefore)
          return { _tag: "InProgress" } satisfies IdempotencyBegin
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
        const rows = yield* sql`
          UPDATE idempotency_keys SET status = 'completed', response = ${encoded}::jsonb, completed_at = ${now}
          WHERE scope = ${scope} AND key = ${key} RETURNING 1`
        // No claim to complete: the caller's writes must not commit without their answer (a retry would repeat them).
        if (rows.length === 0) return yield* Effect.die(new Error(`idempotency key ${scope}/${key} has no claim`))
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
