import { Context, Effect, Layer, type Redacted } from "effect"
import type { UserId } from "../ids.ts"
import { Transactor } from "../ports/Transactor.ts"
import { Webhooks } from "../webhooks/Webhooks.ts"
import type { UserNotFound } from "./AccountErrors.ts"
import { Accounts } from "./Accounts.ts"
import type { User } from "./User.ts"

/**
 * Replacing the API key, and with it what the old key set up. Webhook endpoints belong to the account
 * and are managed only with its key, so a key rotated because it leaked would otherwise keep feeding
 * the leaker's endpoints (recipients, balances); they go with the old key unless the owner keeps them.
 */
export class ApiKeyRotation extends Context.Service<
  ApiKeyRotation,
  {
    /** A new key (shown this once); the account's webhook endpoints removed unless `keepWebhooks`, atomically. */
    readonly rotate: (
      userId: UserId,
      options: { readonly keepWebhooks: boolean }
    ) => Effect.Effect<
      { readonly apiKey: Redacted.Redacted<string>; readonly user: User; readonly webhooksRemoved: number },
      UserNotFound
    >
  }
>()("core/accounts/ApiKeyRotation") {
  static readonly layer = Layer.effect(
    ApiKeyRotation,
    Effect.gen(function* () {
      const accounts = yield* Accounts
      const webhooks = yield* Webhooks
      const tx = yield* Transactor

      const rotate = Effect.fn("ApiKeyRotation.rotate")(function* (
        userId: UserId,
        options: { readonly keepWebhooks: boolean }
      ) {
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const rotated = yield* accounts.rotateApiKey(userId)
            const webhooksRemoved = options.keepWebhooks ? 0 : yield* webhooks.removeAll(userId)
            return { ...rotated, webhooksRemoved }
          })
        )
      })

      return ApiKeyRotation.of({ rotate })
    })
  )
}
