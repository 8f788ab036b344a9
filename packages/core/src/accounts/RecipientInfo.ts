import { Context, Effect, Layer, Option } from "effect"
import type { UserId } from "../ids.ts"
import { Marketplace, type MarketplaceError, type Recipient } from "../ports/Marketplace.ts"
import type { InfoLookupQuotaExceeded, UserNotFound } from "./AccountErrors.ts"
import { Accounts, type LookupUsage } from "./Accounts.ts"

export interface RecipientInfoResult {
  readonly usage: LookupUsage
  /** None when the marketplace knows no such Telegram user. */
  readonly recipient: Option.Option<Recipient>
}

/**
 * The paid info lookup of the API: one lookup is counted against the caller's daily quota first
 * (a caller over quota asks the marketplace nothing), then the marketplace is asked who the username is.
 */
export class RecipientInfo extends Context.Service<
  RecipientInfo,
  {
    readonly lookup: (
      userId: UserId,
      username: string
    ) => Effect.Effect<RecipientInfoResult, UserNotFound | InfoLookupQuotaExceeded | MarketplaceError>
  }
>()("core/accounts/RecipientInfo") {
  static readonly layer = Layer.effect(
    RecipientInfo,
    Effect.gen(function* () {
      const accounts = yield* Accounts
      const marketplace = yield* Marketplace

      const lookup = Effect.fn("RecipientInfo.lookup")(function* (userId: UserId, username: string) {
        const usage = yield* accounts.takeInfoLookup(userId)
        const recipient = yield* marketplace.lookupRecipient("stars", username).pipe(
          Effect.map(Option.some),
          Effect.catchIf(
            (e) => e.reason === "RecipientNotFound",
            () => Effect.succeed(Option.none<Recipient>())
          )
        )
        return { usage, recipient } satisfies RecipientInfoResult
      })

      return RecipientInfo.of({ lookup })
    })
  )
}
