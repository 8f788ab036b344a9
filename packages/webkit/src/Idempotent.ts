import { hashRequest, Idempotency } from "@resale/core/idempotency/Idempotency.ts"
import { Effect, type Schema } from "effect"

/** Whose key: a user's keys serve every money-moving endpoint of that user; operators share one scope. */
export type KeyOwner = { readonly user: number } | "operator"

const scopeOf = (owner: KeyOwner): string => (owner === "operator" ? "operator" : `user:${owner.user}`)

/**
 * `Idempotency-Key` on a money-moving call, through core's Idempotency (Stripe's rules): the answer
 * (the route's DTO, encoded with `schema`) is stored with the use case's writes and replayed for the
 * same key and body; another body, or the same key on another endpoint of the same owner, is a 409
 * with its own code and runs nothing. Keys live 24 hours. The JSON routes and the web's forms share
 * it (a form's key is the same as the route's); `onReplay` marks a replayed answer (the JSON routes'
 * `Idempotent-Replayed: true`).
 */
export const idempotentWith =
  (onReplay: Effect.Effect<void> | undefined) =>
  <A, I, E, R>(
    key: string | undefined,
    owner: KeyOwner,
    endpoint: string,
    body: unknown,
    schema: Schema.Codec<A, I>,
    effect: Effect.Effect<A, E, R>
  ) =>
    Effect.gen(function* () {
      if (key === undefined) return yield* effect
      const idempotency = yield* Idempotency
      const requestHash = yield* hashRequest(body)
      return yield* idempotency.run(
        { scope: scopeOf(owner), endpoint, key, requestHash, ...(onReplay === undefined ? {} : { onReplay }) },
        schema,
        effect
      )
    })
