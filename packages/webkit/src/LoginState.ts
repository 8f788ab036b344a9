import { HttpServerResponse } from "effect/http"
import { createHmac, randomBytes } from "node:crypto"
import { safeEqual } from "./TelegramLogin.ts"

/**
 * Binds a Telegram sign-in to the browser that opened the sign-in page (no login CSRF). Serving the
 * page gives the browser a random `resale_login_state` cookie and puts `state` = HMAC(server key,
 * cookie) into the widget's callback URL; the callback signs in only when both match. A link that
 * carries someone else's payload (and their state) fails in any other browser: its cookie differs.
 */
export const LOGIN_STATE_COOKIE = "resale_login_state"
export const LOGIN_STATE_PARAM = "state"
export const CALLBACK_PATH = "/v2/auth/messenger/callback"

// Long enough for someone who keeps the sign-in page open; each new page keeps the same value.
const STATE_COOKIE_MAX_AGE = "86400 seconds"

const mac = (secret: string, cookie: string) =>
  createHmac("sha256", secret).update(`login-state\n${cookie}`).digest("base64url")

/** The browser's existing state cookie when well formed, else a fresh one (which must then be set). */
export const loginStateCookie = (existing: string | undefined): { readonly value: string; readonly isNew: boolean } =>
  existing !== undefined && /^[A-Za-z0-9_-]{32}$/.test(existing)
    ? { value: existing, isNew: false }
    : { value: randomBytes(24).toString("base64url"), isNew: true }

/** The widget's `data-auth-url` for the browser holding `cookie`. */
export const callbackUrl = (publicUrl: string, secret: string, cookie: string): string =>
  `${publicUrl}${CALLBACK_PATH}?${LOGIN_STATE_PARAM}=${mac(secret, cookie)}`

export const loginStateValid = (secret: string, cookie: string | undefined, state: string | undefined): boolean =>
  cookie !== undefined && state !== undefined && safeEqual(mac(secret, cookie), state)

const cookieOptions = (secure: boolean) => ({ path: "/", httpOnly: true, sameSite: "lax" as const, secure })

/** Sets the state cookie on the answer that shows the sign-in widget. */
export const withLoginStateCookie = (
  response: HttpServerResponse.HttpServerResponse,
  value: string,
  secure: boolean
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.setCookieUnsafe(response, LOGIN_STATE_COOKIE, value, {
    ...cookieOptions(secure),
    maxAge: STATE_COOKIE_MAX_AGE
  })

/** Clears it once it served a sign-in: the next sign-in page gets a fresh one. */
export const clearLoginStateCookie = (response: HttpServerResponse.HttpServerResponse, secure: boolean) =>
  HttpServerResponse.setCookieUnsafe(response, LOGIN_STATE_COOKIE, "", {
    ...cookieOptions(secure),
    maxAge: "0 seconds",
    expires: new Date(0)
  })
