import { createHmac, randomBytes } from "node:crypto"
import { safeEqual } from "@resale/webkit/TelegramLogin.ts"
import type { MessageKey } from "../i18n/en.ts"
import type { Params } from "../i18n/Translate.ts"

/**
 * The web UI's own cookies: the CSRF secret of the browser (double-submit, the form carries an
 * HMAC of it, bound to the server key) and the one-shot flash message shown after a redirect.
 */
export const CSRF_COOKIE = "resale_csrf"
export const FLASH_COOKIE = "resale_flash"
export const CSRF_FIELD = "_csrf"

const mac = (secret: string, label: string, value: string) =>
  createHmac("sha256", secret).update(`${label}\n${value}`).digest("base64url")

export const newCsrfSecret = (): string => randomBytes(24).toString("base64url")

/** The token a page puts in its forms for the browser holding `cookie`. */
export const csrfToken = (secret: string, cookie: string): string => mac(secret, "csrf", cookie)

export const csrfValid = (secret: string, cookie: string | undefined, token: string | undefined): boolean =>
  cookie !== undefined && cookie.length >= 16 && token !== undefined && safeEqual(csrfToken(secret, cookie), token)

/** One line of a flash: a dictionary message, or text that is already in words (a server detail). */
export type FlashLine = { readonly key: MessageKey; readonly params?: Params } | { readonly text: string }

export interface Flash {
  readonly kind: "ok" | "error"
  readonly lines: ReadonlyArray<FlashLine>
  /** The id of the page section holding the form that failed: the message is shown there. */
  readonly form?: string
  /** What the shopper typed into that form, put back so nothing has to be typed again. */
  readonly values?: Readonly<Record<string, string>>
  /** The top-up this message is about: the live page rewrites it once that top-up is settled. */
  readonly topup?: number
}

// Cookies hold about 4 KB; a flash longer than this is cut to its first lines.
const MAX_FLASH = 2500

/** Signed, so nobody can plant words on our pages by setting a cookie. */
export const encodeFlash = (secret: string, flash: Flash): string => {
  let lines = flash.lines
  let body = Buffer.from(JSON.stringify({ ...flash, lines })).toString("base64url")
  // Typed values are a courtesy: the first thing dropped when the cookie would be too big.
  if (body.length > MAX_FLASH && flash.values !== undefined) {
    flash = { kind: flash.kind, lines, ...(flash.form === undefined ? {} : { form: flash.form }) }
    body = Buffer.from(JSON.stringify(flash)).toString("base64url")
  }
  while (body.length > MAX_FLASH && lines.length > 1) {
    lines = lines.slice(0, -1)
    body = Buffer.from(JSON.stringify({ ...flash, lines })).toString("base64url")
  }
  return `${body}.${mac(secret, "flash", body)}`
}

export const decodeFlash = (secret: string, value: string | undefined): Flash | undefined => {
  if (!value) return undefined
  const dot = value.lastIndexOf(".")
  if (dot <= 0) return undefined
  const body = value.slice(0, dot)
  if (!safeEqual(mac(secret, "flash", body), value.slice(dot + 1))) return undefined
  try {
    const parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Flash
    if (parsed.kind !== "ok" && parsed.kind !== "error") return undefined
    return {
      kind: parsed.kind,
      lines: parsed.lines ?? [],
      ...(typeof parsed.form === "string" && /^[a-z0-9-]{1,40}$/.test(parsed.form) ? { form: parsed.form } : {}),
      ...(typeof parsed.values === "object" && parsed.values !== null ? { values: parsed.values } : {}),
      ...(Number.isSafeInteger(parsed.topup) && parsed.topup! > 0 ? { topup: parsed.topup! } : {})
    }
  } catch {
    return undefined
  }
}
