import { Context, type Effect, type Option } from "effect"
import type { Tier, TelegramIdentity, User } from "../accounts/User.ts"
import type { UserNotFound } from "../accounts/AccountErrors.ts"
import type { UserId } from "../ids.ts"
import type { Uzs } from "../money/Uzs.ts"
import type { Page, PageRequest } from "../Page.ts"

/**
 * User accounts. Every user also has a ledger account with balance 0 from the moment it is created.
 * Usernames are compared case-insensitively and without a leading at-sign.
 */
export class Users extends Context.Service<
  Users,
  {
    /**
     * Creates the user for this Telegram id, or updates username / first name / photo of the
     * existing one. Idempotent; concurrent calls for one telegram id yield one user.
     */
    readonly upsertTelegram: (identity: TelegramIdentity, now: Date) => Effect.Effect<User>
    readonly find: (id: UserId) => Effect.Effect<Option.Option<User>>
    readonly findByTelegramId: (telegramId: number) => Effect.Effect<Option.Option<User>>
    readonly findByUsername: (username: string) => Effect.Effect<Option.Option<User>>
    /** The user whose API key has this SHA-256 hex hash. */
    readonly findByApiKeyHash: (hash: string) => Effect.Effect<Option.Option<User>>
    /**
     * The id of the user whose API key has this hash, with their balance (0 without an account row),
     * in one read: the most polled API route needs nothing else.
     */
    readonly balanceByApiKeyHash: (
      hash: string
    ) => Effect.Effect<Option.Option<{ readonly userId: UserId; readonly balance: Uzs }>>
    /** Replaces the key hash (rotation): the old key stops working in the same write. */
    readonly setApiKeyHash: (id: UserId, hash: string) => Effect.Effect<User, UserNotFound>
    /** Raises the tier to `tier`; never lowers it (PG: `SET tier = GREATEST(tier, $2)`), so racing upgrades keep the highest. */
    readonly setTier: (id: UserId, tier: Tier) => Effect.Effect<User, UserNotFound>
    /** Links the bot chat used for notifications (null unlinks, e.g. the user blocked the bot). */
    readonly setBotChat: (id: UserId, chatId: number | null) => Effect.Effect<User, UserNotFound>
    /** Newest first; `search` matches username or first name (case-insensitive substring). */
    readonly list: (filter: { readonly search?: string } & PageRequest) => Effect.Effect<Page<User>>
  }
>()("core/ports/Users") {}
