import { Context, Effect, Layer, Schema } from "effect"
import { IdempotencyKeys } from "../ports/IdempotencyKeys.ts"
import { Transactor } from "../ports/Transactor.ts"
import { sha256Hex } from "../Secrets.ts"
import { currentDate } from "../Time.ts"
import {
  IDEMPOTENCY_KEY_MAX,
  IDEMPOTENCY_KEY_TTL_MS,
  IdempotencyKeyConflict,
  IdempotencyKeyInProgress,
  IdempotencyKeyInvalid
} from "./IdempotencyRecord.ts"

export interface IdempotentRequest {
  /** Whose key, e.g. `user:42` or `operator`: keys of different scopes never meet. */
  readonly scope: string
  /** Which money-moving endpoint, e.g. `orders.stars`: one key serves one endpoint of its scope. */
  readonly endpoint: string
  /** The client's `Idempotency-Key` header; without one the effect simply runs. */
  readonly key: string | undefined
  /** `hashRequest(body)`: the same key with another body is a conflict. */
  readonly requestHash: string
  /** Runs when the answer is replayed from the stored one (the HTTP edge says so in a header). */
  readonly onReplay?: Effect.Effect<void>
}

export type IdempotencyError = IdempotencyKeyConflict | IdempotencyKeyInProgress | IdempotencyKeyInvalid

/** Stores and replays answers of money-moving requests by their `Idempotency-Key`. */
export class Idempotency extends Context.Service<
  Idempotency,
  {
    /**
     * Runs `effect` once per (scope, key): the key is claimed and the answer, encoded with `schema`,
     * stored in the same transaction as the effect's writes, so a request that committed always
     * replays and one that failed or died with its process can be sent again at once (failures are
     * not stored). A repeat with the same body gets the stored answer; with another body
     * `IdempotencyKeyConflict`; while the first still runs `IdempotencyKeyInProgress`. Keys expire
     * after 24 hours.
     */
    readonly run: <A, I, E, R>(
      request: IdempotentRequest,
      schema: Schema.Codec<A, I>,
      effect: Effect.Effect<A, E, R>
    ) => Effect.Effect<A, E | IdempotencyError, R>
    /** Forgets the keys older than 24 hours; returns how many. */
    readonly pruneExpired: Effect.Effect<number>
  }
>()("core/idempotency/Idempotency") {
  static readonly layer = Layer.effect(
    Idempotency,
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys
      const tx = yield* Transactor

      const run = <A, I, E, R>(
        request: IdempotentRequest,
        schema: Schema.Codec<A, I>,
        effect: Effect.Effect<A, E, R>
      ): Effect.Effect<A, E | IdempotencyError, R> =>
        Effect.gen(function* () {
          const { endpoint, key, requestHash, scope } = request
          if (key === undefined) return yield* effect
          if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
            return yield* new IdempotencyKeyInvalid({
              message: `Idempotency-Key must be 1-${IDEMPOTENCY_KEY_MAX} characters`
            })
          }
          // The claim, the effect's writes and the answer commit together: a holder that dies or
          // fails takes its claim with it, and one that committed left its answer to replay.
          return yield* tx.withTransaction(
            Effect.gen(function* () {
              const begun = yield* keys.begin(scope, key, endpoint, requestHash, yield* currentDate)
              switch (begun._tag) {
                case "Replay": {
                  const answer = yield* Schema.decodeUnknownEffect(schema)(begun.response).pipe(Effect.orDie)
                  if (request.onReplay !== undefined) yield* request.onReplay
                  return answer
                }
                case "Conflict":
                  return yield* new IdempotencyKeyConflict({ scope, reason: begun.reason })
                case "InProgress":
                  return yield* new IdempotencyKeyInProgress({ scope })
                case "New": {
                  const answer = yield* effect
                  const encoded = yield* Schema.encodeEffect(schema)(answer).pipe(Effect.orDie)
                  yield* keys.complete(scope, key, encoded, yield* currentDate)
                  return answer
                }
              }
            })
          )
        }).pipe(Effect.withSpan("Idempotency.run"))

      const pruneExpired = Effect.gen(function* () {
        const now = yield* currentDate
        return yield* keys.prune(new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS))
      }).pipe(Effect.withSpan("Idempotency.pruneExpired"))

      return Idempotency.of({ run, pruneExpired })
    })
  )
}

/** SHA-256 of the request's canonical JSON (object keys sorted), for `IdempotentRequest.requestHash`. */
export const hashRequest = (body: unknown): Effect.Effect<string> => sha256Hex(canonicalJson(body))

const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        )
      : typeof v === "bigint"
        ? v.toString()
        : v
  )
