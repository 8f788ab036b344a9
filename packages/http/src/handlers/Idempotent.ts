import { hashRequest, Idempotency } from "@resale/core/idempotency/Idempotency.ts"
import { Effect, type Schema } from "effect"

/**
 * `Idempotency-Key` on a money-moving call, through core's Idempotency: the answer (the route's
 * DTO, encoded with `schema`) is stored with the use case's writes and replayed for the same key
 * and body; another body under the same key is a 409.
 */
export const idempotent = <A, I, E, R>(
  key: string | undefined,
  scope: string,
  body: unknown,
  schema: Schema.Codec<A, I>,
  effect: Effect.Effect<A, E, R>
) =>
  Effect.gen(function*() {
    if (key === undefined) return yield* effect
    const idempotency = yield* Idempotency
    const requestHash = yield* hashRequest(body)
    return yield* idempotency.run({ scope, key, requestHash }, schema, effect)
  })
