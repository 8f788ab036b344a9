import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { UserId } from "../ids.ts"
import type { InsufficientBalance } from "../ledger/LedgerErrors.ts"
import type { Uzs } from "../money/Uzs.ts"
import type { Page, PageRequest } from "../Page.ts"
import { InfoLookups } from "../ports/InfoLookups.ts"
import { Ledger } from "../ports/Ledger.ts"
import { Transactor } from "../ports/Transactor.ts"
import { Users } from "../ports/Users.ts"
import { currentDate, utcDay } from "../Time.ts"
import { ApiKeyInvalid, type InfoLookupQuotaExceeded, TierUpgradeInvalid, UserNotFound } from "./AccountErrors.ts"
import { apiKeyHasher, generateApiKey, isApiKeyShaped } from "./ApiKey.ts"
import { dailyLookupLimit, isTier, TIERS, tierCharge } from "./Tiers.ts"
import type { TelegramIdentity, Tier, User } from "./User.ts"

export interface LookupUsage {
  readonly tier: Tier
  readonly day: string
  readonly used: number
  readonly limit: number
}

/** Sign-in, API keys, info-lookup tiers and quotas. */
export class Accounts extends Context.Service<
  Accounts,
  {
    /** Creates or refreshes the user of a Telegram identity the caller has already verified. */
    readonly signIn: (identity: TelegramIdentity) => Effect.Effect<User>
    readonly find: (userId: UserId) => Effect.Effect<User, UserNotFound>
    readonly findByUsername: (username: string) => Effect.Effect<User, UserNotFound>
    /** Creates or replaces the user's API key; the clear key is returned this once and never stored. */
    readonly rotateApiKey: (
      userId: UserId
    ) => Effect.Effect<{ readonly apiKey: Redacted.Redacted<string>; readonly user: User }, UserNotFound>
    /** The owner of an API key (hash lookup). A missing, malformed or unknown key is `ApiKeyInvalid`. */
    readonly authenticate: (
      apiKey: Redacted.Redacted<string> | string | undefined
    ) => Effect.Effect<User, ApiKeyInvalid>
    /**
     * The balance of the API key's owner (and who that is), authenticated as `authenticate` does,
     * in one storage read.
     */
    readonly balanceByApiKey: (
      apiKey: Redacted.Redacted<string> | string | undefined
    ) => Effect.Effect<{ readonly userId: UserId; readonly balance: Uzs }, ApiKeyInvalid>
    /**
     * Upgrades the info-lookup tier, paying its price from the balance (ledger cause
     * `tier:<userId>:<tier>`, so a tier is paid at most once). Only upgrades are allowed.
     */
    readonly upgradeTier: (
      userId: UserId,
      tier: number
    ) => Effect.Effect<
      { readonly user: User; readonly chargedUzs: Uzs },
      UserNotFound | TierUpgradeInvalid | InsufficientBalance
    >
    /** Counts one info lookup against today's (UTC) quota of the user's tier. */
    readonly takeInfoLookup: (userId: UserId) => Effect.Effect<LookupUsage, UserNotFound | InfoLookupQuotaExceeded>
    readonly lookupUsage: (userId: UserId) => Effect.Effect<LookupUsage, UserNotFound>
    /** Links (or with null unlinks) the bot chat that notifications go to. */
    readonly linkBotChat: (userId: UserId, chatId: number | null) => Effect.Effect<User, UserNotFound>
    /**
     * Operators: users, newest first; `search` matches username or first name, and a number is also
     * tried as a user number and as a Telegram id (those users come first on the first page).
     */
    readonly list: (filter: { readonly search?: string } & PageRequest) => Effect.Effect<Page<User>>
  }
>()("core/accounts/Accounts") {
  static readonly layer = Layer.effect(
    Accounts,
    Effect.gen(function* () {
      const users = yield* Users
      const ledger = yield* Ledger
      const lookups = yield* InfoLookups
      const tx = yield* Transactor
      const hashApiKey = yield* apiKeyHasher

      const find = Effect.fn("Accounts.find")(function* (userId: UserId) {
        const user = yield* users.find(userId)
        if (Option.isNone(user)) return yield* new UserNotFound({ userId })
        return user.value
      })

      const signIn = Effect.fn("Accounts.signIn")(function* (identity: TelegramIdentity) {
        const username = identity.username === null ? null : identity.username.replace(/^@/, "")
        return yield* users.upsertTelegram({ ...identity, username }, yield* currentDate)
      })

      const findByUsername = Effect.fn("Accounts.findByUsername")(function* (username: string) {
        const user = yield* users.findByUsername(username.replace(/^@/, ""))
        if (Option.isNone(user)) return yield* new UserNotFound({})
        return user.value
      })

      const rotateApiKey = Effect.fn("Accounts.rotateApiKey")(function* (userId: UserId) {
        const apiKey = yield* generateApiKey
        const user = yield* users.setApiKeyHash(userId, yield* hashApiKey(apiKey))
        return { apiKey, user }
      })

      const authenticate = Effect.fn("Accounts.authenticate")(function* (
        apiKey: Redacted.Redacted<string> | string | undefined
      ) {
        if (apiKey === undefined) return yield* new ApiKeyInvalid()
        const key = typeof apiKey === "string" ? Redacted.make(apiKey) : apiKey
        if (!isApiKeyShaped(Redacted.value(key))) return yield* new ApiKeyInvalid()
        const user = yield* users.findByApiKeyHash(yield* hashApiKey(key))
        if (Option.isNone(user)) return yield* new ApiKeyInvalid()
        return user.value
      })

      const balanceByApiKey = Effect.fn("Accounts.balanceByApiKey")(function* (
        apiKey: Redacted.Redacted<string> | string | undefined
      ) {
        if (apiKey === undefined) return yield* new ApiKeyInvalid()
        const key = typeof apiKey === "string" ? Redacted.make(apiKey) : apiKey
        if (!isApiKeyShaped(Redacted.value(key))) return yield* new ApiKeyInvalid()
        const found = yield* users.balanceByApiKeyHash(yield* hashApiKey(key))
        if (Option.isNone(found)) return yield* new ApiKeyInvalid()
        return found.value
      })

      const upgradeTier = Effect.fn("Accounts.upgradeTier")(function* (userId: UserId, requested: number) {
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const user = yield* find(userId)
            if (!isTier(requested)) {
              return yield* new TierUpgradeInvalid({ reason: "UnknownTier", current: user.tier, requested })
            }
            if (requested <= user.tier) {
              return yield* new TierUpgradeInvalid({ reason: "NotAnUpgrade", current: user.tier, requested })
            }
            const price = TIERS[requested].priceUzs
            const { created } = yield* ledger.post(tierCharge(userId, requested))
            const upgraded = yield* users.setTier(userId, requested)
            return { user: upgraded, chargedUzs: created ? price : (0 as Uzs) }
          })
        )
      })

      const lookupUsage = Effect.fn("Accounts.lookupUsage")(function* (userId: UserId) {
        const user = yield* find(userId)
        const day = utcDay(yield* currentDate)
        const used = yield* lookups.count(userId, day)
        return { tier: user.tier, day, used, limit: dailyLookupLimit(user.tier) }
      })

      const takeInfoLookup = Effect.fn("Accounts.takeInfoLookup")(function* (userId: UserId) {
        const user = yield* find(userId)
        const day = utcDay(yield* currentDate)
        const limit = dailyLookupLimit(user.tier)
        const used = yield* lookups.take(userId, day, limit)
        return { tier: user.tier, day, used, limit }
      })

      const linkBotChat = Effect.fn("Accounts.linkBotChat")(function* (userId: UserId, chatId: number | null) {
        return yield* users.setBotChat(userId, chatId)
      })

      const list = Effect.fn("Accounts.list")(function* (filter: { readonly search?: string } & PageRequest) {
        const page = yield* users.list(filter)
        const search = filter.search?.trim() ?? ""
        if (!/^\d{1,15}$/.test(search) || filter.offset > 0) return page
        const byNumber = yield* users.find(Number(search) as UserId)
        const byTelegram = yield* users.findByTelegramId(Number(search))
        const exact = [...Option.toArray(byNumber), ...Option.toArray(byTelegram)].filter(
          (u, i, all) => all.findIndex((v) => v.id === u.id) === i
        )
        const added = exact.filter((u) => !page.items.some((p) => p.id === u.id)).length
        const rest = page.items.filter((u) => !exact.some((e) => e.id === u.id))
        return { items: [...exact, ...rest].slice(0, Math.max(filter.limit, exact.length)), total: page.total + added }
      })

      return Accounts.of({
        signIn,
        find,
        findByUsername,
        rotateApiKey,
        authenticate,
        balanceByApiKey,
        upgradeTier,
        takeInfoLookup,
        lookupUsage,
        linkBotChat,
        list
      })
    })
  )
}
