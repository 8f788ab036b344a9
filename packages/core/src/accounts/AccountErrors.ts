import { Schema } from "effect"
import { UserId } from "../ids.ts"
import { Tier } from "./User.ts"

/** No such user (or a user the caller may not see). */
export class UserNotFound extends Schema.TaggedError<UserNotFound>()("UserNotFound", {
  userId: Schema.optionalKey(UserId)
}) {}

/** The API key is missing, malformed or matches no user. Never carries the key. */
export class ApiKeyInvalid extends Schema.TaggedError<ApiKeyInvalid>()("ApiKeyInvalid", {}) {}

/** A tier change that is not an upgrade to a known tier. */
export class TierUpgradeInvalid extends Schema.TaggedError<TierUpgradeInvalid>()("TierUpgradeInvalid", {
  reason: Schema.Literals(["UnknownTier", "NotAnUpgrade"]),
  current: Tier,
  requested: Schema.Int
}) {}

/** The user's daily info-lookup quota is used up. */
export class InfoLookupQuotaExceeded extends Schema.TaggedError<InfoLookupQuotaExceeded>()("InfoLookupQuotaExceeded", {
  limit: Schema.Int,
  day: Schema.String
}) {}
