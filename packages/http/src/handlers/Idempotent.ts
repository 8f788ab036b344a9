import { IdempotencyKeyConflict, IdempotencyKeyInProgress, IdempotencyKeyInvalid, IdempotencyKeys, Transactor } from "@resale/core"
import { Effect } from "effect"
import { createHash } from "node:crypto"

const MAX_KEY = 255

/** Stable JSON (sorted keys) so the same request always hashes the same. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    return `{${entries.sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

export const requestHash = (request: unknown): string => createHash("sha256").update(canonical(request)).digest("hex")

/**
 * `Idempotency-Key` on a money-moving call: the first answer is stored in the same transaction as
 * the use case's writes; the same key with the same request replays it, with another request it is
 * a 409. Without a key the call simply runs. `answer` must be JSON (the DTO the route returns).
 */
export const idempotent = <A, E, R>(
  key: string | undefined,
  scope: string,
  request: unknown,
  answer: Effect.Effect<A, E, R>
): Effect.Effect<
  A,
  E | IdempotencyKeyConflict | IdempotencyKeyInProgress | IdempotencyKeyInvalid,
  R | IdempotencyKeys | Transactor
> => {
  if (key === undefined) return answer
  return Effect.gen(function*() {
    const trimmed = key.trim()
    if (trimmed === "" || trimmed.length > MAX_KEY) {
      return yield* new IdempotencyKeyInvalid({ message: `Idempotency-Key must have 1 to ${MAX_KEY} characters` })
    }
    const keys = yield* IdempotencyKeys
    const tx = yield* Transactor
    const now = new Date(yield* Effect.clockWith((clock) => clock.currentTimeMillis))
    const begun = yield* keys.begin(scope, trimmed, requestHash(request), now)
    switch (begun._tag) {
      case "Replay":
        return begun.response as A
      case "Conflict":
        return yield* new IdempotencyKeyConflict({ scope })
      case "InProgress":
        return yield* new IdempotencyKeyInProgress({ scope })
    }
    return yield* tx.withTransaction(
      Effect.tap(answer, (response) => keys.complete(scope, trimmed, response, now))
    ).pipe(Effect.onError(() => keys.abandon(scope, trimmed)))
  })
}
