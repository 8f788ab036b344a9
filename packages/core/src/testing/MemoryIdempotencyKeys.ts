import { Effect, Layer } from "effect"
import type { IdempotencyBegin } from "../idempotency/IdempotencyRecord.ts"
import { IdempotencyKeys } from "../ports/IdempotencyKeys.ts"
import { MemoryDb } from "./MemoryDb.ts"

/** An in-progress key older than this counts as abandoned by a crashed request. */
export const IDEMPOTENCY_STALE_MS = 10 * 60 * 1000

const id = (scope: string, key: string) => `${scope}\u0000${key}`

/** `IdempotencyKeys` over the in-memory database. */
export const MemoryIdempotencyKeys = Layer.effect(
  IdempotencyKeys,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    return IdempotencyKeys.of({
      begin: (scope, key, requestHash, now) =>
        db.read((s): IdempotencyBegin => {
          const record = s.idempotency.get(id(scope, key))
          if (record !== undefined) {
            if (record.requestHash !== requestHash) return { _tag: "Conflict" }
            if (record.state === "completed") return { _tag: "Replay", response: record.response }
            if (now.getTime() - record.startedAt.getTime() < IDEMPOTENCY_STALE_MS) return { _tag: "InProgress" }
          }
          s.idempotency.set(id(scope, key), { requestHash, state: "in_progress", response: null, startedAt: now })
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
        })
    })
  })
)
