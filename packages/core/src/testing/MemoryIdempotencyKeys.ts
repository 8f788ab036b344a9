import { Effect, Layer } from "effect"
import { IDEMPOTENCY_KEY_TTL_MS, type IdempotencyBegin } from "../idempotency/IdempotencyRecord.ts"
import { IdempotencyKeys } from "../ports/IdempotencyKeys.ts"
import { MemoryDb } from "./MemoryDb.ts"

/** A committed in-progress claim (begun outside a transaction) older than this counts as abandoned. */
export const IDEMPOTENCY_STALE_MS = 10 * 60 * 1000

const id = (scope: string, key: string) => `${scope}\u0000${key}`

/** `IdempotencyKeys` over the in-memory database. */
export const MemoryIdempotencyKeys = Layer.effect(
  IdempotencyKeys,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    return IdempotencyKeys.of({
      begin: (scope, key, endpoint, requestHash, now) =>
        db.read((s): IdempotencyBegin => {
          const found = s.idempotency.get(id(scope, key))
          const record =
            found !== undefined && now.getTime() - found.startedAt.getTime() < IDEMPOTENCY_KEY_TTL_MS
              ? found
              : undefined
          if (record !== undefined) {
            if (record.endpoint !== endpoint) return { _tag: "Conflict", reason: "OtherEndpoint" }
            if (record.requestHash !== requestHash) return { _tag: "Conflict", reason: "OtherRequest" }
            if (record.state === "completed") return { _tag: "Replay", response: record.response }
            if (now.getTime() - record.startedAt.getTime() < IDEMPOTENCY_STALE_MS) return { _tag: "InProgress" }
          }
          s.idempotency.set(id(scope, key), {
            endpoint,
            requestHash,
            state: "in_progress",
            response: null,
            startedAt: now
          })
          return { _tag: "New" }
        }),
      complete: (scope, key, response) =>
        db.read((s) => {
          const record = s.idempotency.get(id(scope, key))
          if (record !== undefined) s.idempotency.set(id(scope, key), { ...record, state: "completed", response })
        }),
      abandon: (scope, key) =>
        db.read((s) => {
          if (s.idempotency.get(id(scope, key))?.state === "in_progress") s.idempotency.delete(id(scope, key))
        }),
      prune: (before) =>
        db.read((s) => {
          let pruned = 0
          for (const [k, record] of s.idempotency) {
            if (record.startedAt < before) {
              s.idempotency.delete(k)
              pruned++
            }
          }
          return pruned
        })
    })
  })
)
