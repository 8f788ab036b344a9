import { createHash, createHmac, randomBytes } from "node:crypto"
import { safeEqual } from "./TelegramLogin.ts"

/**
 * Signed session cookies: the cookie carries a random token and its HMAC; the server keeps only
 * SHA-256(token) as the session id, so a leaked sessions table signs nobody in.
 */
export const USER_COOKIE = "resale_session"
export const ADMIN_COOKIE = "resale_admin"

export const newSessionToken = (): string => randomBytes(32).toString("base64url")

export const sessionIdOf = (token: string): string => createHash("sha256").update(token).digest("hex")

const sign = (token: string, secret: string) => createHmac("sha256", secret).update(token).digest("base64url")

export const signCookie = (token: string, secret: string): string => `${token}.${sign(token, secret)}`

/** The token of a well-signed cookie value, or undefined. */
export const unsignCookie = (value: string | undefined, secret: string): string | undefined => {
  if (!value) return undefined
  const dot = value.lastIndexOf(".")
  if (dot <= 0) return undefined
  const token = value.slice(0, dot)
  return safeEqual(sign(token, secret), value.slice(dot + 1)) ? token : undefined
}
