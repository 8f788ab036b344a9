import { Schema } from "effect"
import { UserId } from "../ids.ts"

/** Info-lookup tier: 0 free, 1 and 2 bought from the balance (see `Tiers.ts`). */
export const Tier = Schema.Literals([0, 1, 2])
export type Tier = typeof Tier.Type

/** A Telegram identity that the http layer has already verified (login widget / bot hash). */
export const TelegramIdentity = Schema.Struct({
  telegramId: Schema.Int.check(Schema.isGreaterThan(0)),
  username: Schema.NullOr(Schema.String),
  firstName: Schema.NullOr(Schema.String),
  photoUrl: Schema.NullOr(Schema.String)
})
export type TelegramIdentity = typeof TelegramIdentity.Type

export const User = Schema.Struct({
  id: UserId,
  telegramId: Schema.Int,
  /** Without the leading at-sign; stored as given, looked up case-insensitively. */
  username: Schema.NullOr(Schema.String),
  firstName: Schema.NullOr(Schema.String),
  photoUrl: Schema.NullOr(Schema.String),
  tier: Tier,
  /** Whether an API key exists; the key itself is never stored, only its SHA-256 hash. */
  hasApiKey: Schema.Boolean,
  /** Telegram chat id of the bot conversation, for notifications; null until the user starts the bot. */
  botChatId: Schema.NullOr(Schema.Int),
  createdAt: Schema.Date
})
export type User = typeof User.Type
