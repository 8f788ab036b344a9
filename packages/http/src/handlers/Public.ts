import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { SessionService } from "@resale/core/sessions/SessionService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import type { Viewer } from "@resale/core"
import { Effect, Option, Redacted, Result } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"
import { Api } from "../api/Api.ts"
import { Forbidden, NotFound, TooManyRequests, Unauthorized } from "../api/Errors.ts"
import { ADMIN_COOKIE, USER_COOKIE } from "@resale/webkit/SessionCookie.ts"
import {
  clearLoginStateCookie,
  LOGIN_STATE_COOKIE,
  LOGIN_STATE_PARAM,
  loginStateValid
} from "@resale/webkit/LoginState.ts"
import { FUTURE_SKEW_SECONDS, safeEqual, verifyTelegramLogin } from "@resale/webkit/TelegramLogin.ts"
import { tooManyFailures } from "@resale/webkit/OperatorTokenGuard.ts"
import { redirectWithCookie, signInOperator } from "@resale/webkit/OperatorSignIn.ts"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { retryAfter } from "../server/ResponseHeaders.ts"
import { BotWebhook } from "../bot/BotWebhook.ts"
import { HttpApiBuilder } from "effect/http-api"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { apiDocsOut, homeOut } from "@resale/wire/Dtos.ts"
import { mapErrors } from "./ErrorMapping.ts"

/** Telegram ids of sandbox demo users: stable per name, far above real ids' typical range. */
const sandboxTelegramId = (name: string) =>
  9_000_000_000 + (createHash("sha256").update(name).digest().readUInt32BE(0) % 900_000_000)

export const PublicHandlers = HttpApiBuilder.group(Api, "public", (handlers) =>
  Effect.gen(function* () {
    const config = yield* HttpConfig
    const sessions = yield* WebSessions
    const accounts = yield* Accounts
    const topups = yield* TopupService
    const bot = yield* BotWebhook
    const sessionService = yield* SessionService
    const sandbox = config.sandbox
    const cookieSecret = Redacted.value(config.cookieSecret)
    const signIn = (identity: Parameters<typeof accounts.signIn>[0]) =>
      Effect.gen(function* () {
        const user = yield* accounts.signIn(identity)
        const cookie = yield* sessions.startUser(user.id)
        return redirectWithCookie("/v2/dashboard", cookie, sessions.secureCookies)
      })

    return handlers
      .handle("home", ({ request }) =>
        Effect.map(sessions.user(request), (userId) => homeOut(config, Option.isSome(userId)))
      )
      .handle("telegramCallback", ({ request }) =>
        Effect.gen(function* () {
          const query = yield* HttpServerRequest.ParsedSearchParams
          const fields: Record<string, string> = {}
          for (const [key, value] of Object.entries(query))
            fields[key] = Array.isArray(value) ? value[value.length - 1]! : value
          // Our own parameter, not Telegram's: it is not part of the signed data.
          const state = fields[LOGIN_STATE_PARAM]
          delete fields[LOGIN_STATE_PARAM]
          const refuse = (detail: string, code: "telegram_login_invalid" | "telegram_login_stale", why: string) =>
            Effect.andThen(
              Effect.logWarning("telegram sign-in refused").pipe(
                Effect.annotateLogs({ why, telegram_id: fields["id"] ?? "" })
              ),
              Effect.fail(new Unauthorized({ detail, code }))
            )
          if (!loginStateValid(cookieSecret, request.cookies[LOGIN_STATE_COOKIE], state)) {
            return yield* refuse(
              "Sign-in must start from this site's sign-in page, in the same browser",
              "telegram_login_invalid",
              "state"
            )
          }
          const now = new Date(yield* Effect.clockWith((c) => c.currentTimeMillis))
          const verified = verifyTelegramLogin(fields, Redacted.value(config.botToken), now, config.loginMaxAgeSeconds)
          if (Result.isFailure(verified)) {
            return verified.failure === "Stale"
              ? yield* refuse("Telegram login data is too old", "telegram_login_stale", "stale")
              : yield* refuse("Invalid Telegram login data", "telegram_login_invalid", verified.failure)
          }
          const data = verified.success
          // Once only: the payload is remembered for as long as it would be accepted.
          const keepUntil = new Date((data.authDate + config.loginMaxAgeSeconds + FUTURE_SKEW_SECONDS) * 1000)
          if (!(yield* sessionService.claimLogin(fields["hash"]!.toLowerCase(), keepUntil))) {
            return yield* refuse(
              "This Telegram sign-in was already used; sign in again",
              "telegram_login_invalid",
              "replay"
            )
          }
          const answer = yield* signIn({
            telegramId: data.telegramId,
            username: data.username,
            firstName: data.firstName,
            photoUrl: data.photoUrl
          })
          return clearLoginStateCookie(answer, sessions.secureCookies)
        })
      )
      .handle("sandboxSignIn", ({ query }) =>
        Effect.gen(function* () {
          if (!sandbox) return yield* new NotFound({ detail: "Not Found", code: "not_found" })
          const name = (query.user ?? "demo").replace(/[^A-Za-z0-9_]/g, "").slice(0, 32) || "demo"
          return yield* signIn({
            telegramId: sandboxTelegramId(name),
            username: name,
            firstName: "Sandbox",
            photoUrl: null
          })
        })
      )
      .handle("logout", ({ request }) =>
        Effect.map(sessions.end(request, USER_COOKIE), (cookie) =>
          redirectWithCookie("/v2/", cookie, sessions.secureCookies)
        )
      )
      .handle("apiDocs", ({ request }) =>
        Effect.gen(function* () {
          const userId = yield* sessions.user(request)
          const user = Option.isSome(userId) ? yield* Effect.option(accounts.find(userId.value)) : Option.none()
          return apiDocsOut(Option.match(user, { onNone: () => null, onSome: (u) => u.tier }))
        })
      )
      .handle("receipt", ({ params, request }) =>
        Effect.gen(function* () {
          // Owner or operator only: someone else's top-up answers 404 from the core.
          const viewer: Viewer | undefined = (yield* sessions.operator(request))
            ? { kind: "operator" }
            : Option.match(yield* sessions.user(request), {
                onNone: () => undefined,
                onSome: (userId) => ({ kind: "user", userId })
              })
          if (viewer === undefined)
            return yield* new Unauthorized({ detail: "Not authenticated", code: "not_authenticated" })
          const file = yield* topups.receipt(viewer, params.topup_id).pipe(mapErrors)
          // Uploaded by a user, so never active content of this site: a sandboxed document with no
          // scripts, and a PDF (which the browser would render as a document) downloaded, not shown.
          const image = file.contentType.startsWith("image/")
          return HttpServerResponse.uint8Array(file.bytes, {
            contentType: file.contentType,
            headers: {
              "content-disposition": image ? "inline" : `attachment; filename="receipt-${params.topup_id}.pdf"`,
              "content-security-policy": "sandbox; default-src 'none'; img-src 'self'",
              "x-content-type-options": "nosniff",
              "cache-control": "private, no-store"
            }
          })
        })
      )
      .handle("botWebhook", ({ headers, params, payload }) =>
        Effect.gen(function* () {
          // Two secrets: the path one is in every URL (proxies, logs); only the header one proves Telegram.
          if (!safeEqual(params.secret, Redacted.value(config.webhookSecret)))
            return yield* new NotFound({ detail: "Not Found", code: "not_found" })
          if (
            !safeEqual(headers["x-telegram-bot-api-secret-token"] ?? "", Redacted.value(config.webhookHeaderSecret))
          ) {
            return yield* new Forbidden({ detail: "Invalid secret token", code: "secret_token_invalid" })
          }
          yield* bot.handle(payload)
          return { ok: true }
        })
      )
  })
)

export const AdminLoginHandlers = HttpApiBuilder.group(Api, "adminLogin", (handlers) =>
  Effect.gen(function* () {
    const sessions = yield* WebSessions
    return handlers
      .handle("loginPage", ({ request }) =>
        Effect.map(sessions.operator(request), (signedIn) => ({
          login: "POST /v2/admin/login with form field token",
          signed_in: signedIn
        }))
      )
      .handle("login", ({ payload, request }) =>
        signInOperator(request, payload.token).pipe(
          Effect.map((cookie) => redirectWithCookie("/v2/admin", cookie, sessions.secureCookies)),
          Effect.catchTag("OperatorSignInRefused", (refused) =>
            refused.reason === "blocked"
              ? Effect.andThen(
                  retryAfter(refused.waitSeconds),
                  Effect.fail(
                    new TooManyRequests({ detail: tooManyFailures(refused.waitSeconds), code: "rate_limited" })
                  )
                )
              : Effect.fail(new Unauthorized({ detail: "Invalid admin token", code: "admin_token_invalid" }))
          )
        )
      )
      .handle("logout", ({ request }) =>
        Effect.map(sessions.end(request, ADMIN_COOKIE), (cookie) =>
          redirectWithCookie("/v2/admin/login", cookie, sessions.secureCookies)
        )
      )
  })
)
