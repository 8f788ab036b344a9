import { createHmac } from "node:crypto"
import { safeEqual } from "./TelegramLogin.ts"

/**
 * Signed session cookies: the cookie carries the session token (core SessionService keeps only
 * its hash) and an HMAC of it, so a forged or truncated cookie is refused before any lookup.
 */
export const USER_COOKIE = "resale_session"
export const ADMIN_COOKIE = "resale_admin"

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
