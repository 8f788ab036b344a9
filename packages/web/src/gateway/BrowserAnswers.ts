/**
 * How the gateway (`WebGateway.ts`) answers a browser: each request's page context and the cookies
 * its answer must set (CSRF secret, one-shot message, sign-in state), HTML pages with their security
 * headers, and 303 redirects carrying a one-shot message.
 */
import { Effect, Option, Redacted } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { callbackUrl, LOGIN_STATE_COOKIE, loginStateCookie, withLoginStateCookie } from "@resale/webkit/LoginState.ts"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { type Html, toString } from "../Html.ts"
import { LOCALE_COOKIE, negotiateLocale } from "../i18n/Locale.ts"
import { translator } from "../i18n/Translate.ts"
import type { PageContext } from "../layout/PageContext.ts"
import { errorPage } from "../pages/ErrorPage.ts"
import { ASSET_VERSION } from "../routes/AssetRoutes.ts"
import type { PageResult } from "./PageRoutes.ts"
import {
  CSRF_COOKIE,
  csrfToken,
  decodeFlash,
  encodeFlash,
  type Flash,
  FLASH_COOKIE,
  newCsrfSecret
} from "./WebCookies.ts"

const CSP = [
  "default-src 'self'",
  "script-src 'self' https://telegram.org",
  "frame-src https://oauth.telegram.org",
  "img-src 'self' data: blob: https://t.me https://telegram.org https://*.telegram.org",
  "style-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'"
].join("; ")

const THIRTY_DAYS = "2592000 seconds"

export const pathOf = (url: string) => url.split("?")[0]!.split("#")[0]!

export const browserAnswers = Effect.gen(function* () {
  const config = yield* HttpConfig
  const sessions = yield* WebSessions
  const secret = Redacted.value(config.cookieSecret)
  const secure = config.publicUrl.startsWith("https://")

  const cookieOptions = { path: "/", httpOnly: true, sameSite: "lax" as const, secure }

  /** The per-request context of a page, and the cookies the answer must set. */
  const context = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function* () {
      const existing = request.cookies[CSRF_COOKIE]
      const csrfCookie = existing && existing.length >= 16 ? existing : newCsrfSecret()
      const path = pathOf(request.url)
      const area = path.startsWith("/v2/admin") ? ("admin" as const) : ("user" as const)
      const signedIn = area === "user" && Option.isSome(yield* sessions.user(request))
      const ctx: PageContext = {
        tr: translator(negotiateLocale(request.cookies[LOCALE_COOKIE], request.headers["accept-language"])),
        sandbox: config.sandbox,
        explorer: config.explorerUrl,
        csrf: csrfToken(secret, csrfCookie),
        flash: decodeFlash(secret, request.cookies[FLASH_COOKIE]),
        path: request.url,
        area: area === "user" && !signedIn ? "public" : area,
        signedIn,
        assetVersion: ASSET_VERSION
      }
      // The home page shows the sign-in widget: its callback is bound to this browser (auth/LoginState.ts).
      const login =
        area === "user" && !signedIn && /^\/v2\/?$/.test(path)
          ? loginStateCookie(request.cookies[LOGIN_STATE_COOKIE])
          : undefined
      return {
        ctx,
        newCsrf: csrfCookie === existing ? undefined : csrfCookie,
        hadFlash: request.cookies[FLASH_COOKIE] !== undefined,
        authUrl: login ? callbackUrl(config.publicUrl, secret, login.value) : undefined,
        newLoginState: login?.isNew ? login.value : undefined
      }
    })

  type Prepared = Effect.Success<ReturnType<typeof context>>

  const finish = (prepared: Prepared, response: HttpServerResponse.HttpServerResponse) => {
    let out = response
    if (prepared.newCsrf)
      out = HttpServerResponse.setCookieUnsafe(out, CSRF_COOKIE, prepared.newCsrf, {
        ...cookieOptions,
        maxAge: THIRTY_DAYS
      })
    if (prepared.hadFlash) out = HttpServerResponse.expireCookieUnsafe(out, FLASH_COOKIE, { path: "/" })
    if (prepared.newLoginState) out = withLoginStateCookie(out, prepared.newLoginState, secure)
    return out
  }

  const htmlResponse = (prepared: Prepared, body: Html, status = 200) =>
    finish(
      prepared,
      HttpServerResponse.text(toString(body), {
        status,
        contentType: "text/html; charset=utf-8",
        headers: {
          "content-security-policy": CSP,
          "x-content-type-options": "nosniff",
          "referrer-policy": "same-origin",
          "x-frame-options": "DENY",
          "cache-control": "private, no-store"
        }
      })
    )

  const redirect = (to: string, flash: Flash | undefined, prepared?: Prepared) => {
    const response = HttpServerResponse.redirect(to, { status: 303 })
    const withFlash = flash
      ? HttpServerResponse.setCookieUnsafe(response, FLASH_COOKIE, encodeFlash(secret, flash), {
          ...cookieOptions,
          maxAge: "120 seconds"
        })
      : response
    return prepared ? finish({ ...prepared, hadFlash: false }, withFlash) : withFlash
  }

  const render = (prepared: Prepared, result: PageResult) =>
    result._tag === "Page"
      ? htmlResponse(prepared, result.html)
      : result._tag === "Redirect"
        ? redirect(result.to, result.flash, prepared)
        : htmlResponse(prepared, errorPage(prepared.ctx, result.lines), result.status)

  return { secret, cookieOptions, context, htmlResponse, redirect, render }
})

export type BrowserAnswers = Effect.Success<typeof browserAnswers>
