import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { Forbidden, Unauthorized } from "../api/Errors.ts"
import {
  AdminTokenAuth,
  ApiKeyAuth,
  CurrentOperator,
  CurrentUser,
  OperatorSession,
  UserSession
} from "../api/Middleware.ts"
import { HttpConfig } from "../server/HttpConfig.ts"
import { isSameOrigin } from "./OriginCheck.ts"
import { safeEqual } from "./TelegramLogin.ts"
import { WebSessions } from "./WebSessions.ts"

const crossSite = new Forbidden({ detail: "Cross-site request refused", code: "cross_site_refused" })

/** Refuses a cookie-authenticated state change sent from another site. */
const checkOrigin = (request: HttpServerRequest.HttpServerRequest, publicUrl: string) =>
  request.method !== "GET" && request.method !== "HEAD" && !isSameOrigin(request.headers, [publicUrl])
    ? Effect.fail(crossSite)
    : Effect.void

export const UserSessionLayer = Layer.effect(UserSession)(Effect.gen(function*() {
  const sessions = yield* WebSessions
  const config = yield* HttpConfig
  return (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const userId = yield* sessions.user(request)
      if (Option.isNone(userId)) return yield* new Unauthorized({ detail: "Not authenticated", code: "not_authenticated" })
      yield* checkOrigin(request, config.publicUrl)
      return yield* Effect.provideService(httpEffect, CurrentUser, { userId: userId.value })
    })
}))

export const OperatorSessionLayer = Layer.effect(OperatorSession)(Effect.gen(function*() {
  const sessions = yield* WebSessions
  const config = yield* HttpConfig
  return (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (!(yield* sessions.operator(request))) return yield* new Unauthorized({ detail: "Not authenticated", code: "not_authenticated" })
      yield* checkOrigin(request, config.publicUrl)
      return yield* Effect.provideService(httpEffect, CurrentOperator, { via: "session" })
    })
}))

export const ApiKeyAuthLayer = Layer.effect(ApiKeyAuth)(Effect.gen(function*() {
  const accounts = yield* Accounts
  return (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const key = request.headers["x-api-key"]
      const user = yield* accounts.authenticate(key === undefined ? undefined : Redacted.make(key)).pipe(
        Effect.mapError(() =>
          key === undefined
            ? new Unauthorized({ detail: "Missing X-API-Key header", code: "api_key_missing" })
            : new Unauthorized({ detail: "Invalid API key", code: "api_key_invalid" })
        )
      )
      return yield* Effect.provideService(httpEffect, CurrentUser, { userId: user.id })
    })
}))

export const AdminTokenAuthLayer = Layer.effect(AdminTokenAuth)(Effect.gen(function*() {
  const config = yield* HttpConfig
  const expected = Redacted.value(config.adminToken)
  return (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const token = request.headers["x-admin-token"]
      if (token === undefined) return yield* new Unauthorized({ detail: "Missing X-Admin-Token header", code: "admin_token_missing" })
      if (!safeEqual(token, expected)) return yield* new Unauthorized({ detail: "Invalid admin token", code: "admin_token_invalid" })
      return yield* Effect.provideService(httpEffect, CurrentOperator, { via: "token" })
    })
}))

export const AuthMiddlewareLayer = Layer.mergeAll(
  UserSessionLayer,
  OperatorSessionLayer,
  ApiKeyAuthLayer,
  AdminTokenAuthLayer
)
