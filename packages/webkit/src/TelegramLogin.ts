import { Result } from "effect"
import { createHash, createHmac, timingSafeEqual } from "node:crypto"

/**
 * Telegram Login Widget check (core.telegram.org/widgets/login#checking-authorization):
 * data-check-string = every received field but `hash`, sorted, as `key=value` lines;
 * secret = SHA-256(bot token); expected hash = hex(HMAC-SHA-256(secret, data-check-string)).
 */
/** How long a signed payload is accepted after Telegram issued it (`LOGIN_MAX_AGE`); it is used once anyway. */
export const DEFAULT_LOGIN_MAX_AGE_SECONDS = 10 * 60
/** Clock skew tolerated for an `auth_date` slightly in the future. */
export const FUTURE_SKEW_SECONDS = 300

export interface TelegramLoginData {
  readonly telegramId: number
  readonly username: string | null
  readonly firstName: string | null
  readonly lastName: string | null
  readonly photoUrl: string | null
  readonly authDate: number
}

export type TelegramLoginFailure = "MissingHash" | "MissingField" | "BadHash" | "Stale" | "BadId"

export const dataCheckString = (fields: Readonly<Record<string, string>>): string =>
  Object.keys(fields)
    .filter((key) => key !== "hash")
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join("\n")

export const loginHash = (fields: Readonly<Record<string, string>>, botToken: string): string => {
  const secret = createHash("sha256").update(botToken).digest()
  return createHmac("sha256", secret).update(dataCheckString(fields)).digest("hex")
}

/** Constant-time comparison of two strings (false for different lengths, without early exit on content). */
export const safeEqual = (a: string, b: string): boolean => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  if (left.length !== right.length) {
    timingSafeEqual(left, left)
    return false
  }
  return timingSafeEqual(left, right)
}

export const verifyTelegramLogin = (
  fields: Readonly<Record<string, string>>,
  botToken: string,
  now: Date,
  maxAgeSeconds: number = DEFAULT_LOGIN_MAX_AGE_SECONDS
): Result.Result<TelegramLoginData, TelegramLoginFailure> => {
  const hash = fields["hash"]
  if (!hash) return Result.fail("MissingHash")
  if (!fields["id"] || !fields["auth_date"]) return Result.fail("MissingField")
  if (!safeEqual(loginHash(fields, botToken), hash.toLowerCase())) return Result.fail("BadHash")
  const authDate = Number(fields["auth_date"])
  const nowSeconds = Math.floor(now.getTime() / 1000)
  if (
    !Number.isInteger(authDate) ||
    nowSeconds - authDate > maxAgeSeconds ||
    authDate - nowSeconds > FUTURE_SKEW_SECONDS
  ) {
    return Result.fail("Stale")
  }
  const telegramId = Number(fields["id"])
  if (!Number.isSafeInteger(telegramId) || telegramId <= 0) return Result.fail("BadId")
  return Result.succeed({
    telegramId,
    username: fields["username"] ?? null,
    firstName: fields["first_name"] ?? null,
    lastName: fields["last_name"] ?? null,
    photoUrl: fields["photo_url"] ?? null,
    authDate
  })
}
