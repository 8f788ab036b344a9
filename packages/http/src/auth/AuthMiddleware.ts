import { Accounts } from "@resale/core/accounts/Accounts.ts"
import type { UserId } from "@resale/core/ids.ts"
import { noteRequestUser } from "@resale/observability/RequestFacts.ts"
import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { Forbidden, TooManyRequests, Unauthorized } from "../api/Errors.ts"
import {
  AdminTokenAuth,
  ApiKeyAuth,
  CurrentOperator,
  CurrentUser,
  OperatorSession,
  UserSession
} from "../api/Middleware.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { clientAddress, limitKey, trustedProxies } from "@resale/webkit/ClientAddress.ts"
import { retryAfter } from "../server/ResponseHeaders.ts"
import { isSameOrigin } from "@resale/webkit/OriginCheck.ts"
import { OperatorTokenGuard, tooManyFailures } from "./OperatorTokenGuard.ts"
import { safeEqual } from "@resale/webkit/TelegramLogin.ts"
import { WebSessions } from "@resale/webkit/WebSessions.ts"

const crossSite = new Forbidden({ detail: "Cross-site request refused", code: "cross_site_refused" })

/** Refuses a cookie-authenticated state change sent from another site. */
const checkOrigin = (request: HttpServerRequest.HttpServerRequest, publicUrl: string) =>
  request.method !== "GET" && request.method !== "HEAD" && !isSameOrigin(request.headers, [publicUrl])
    ? Effect.fail(crossSite)
    : Effect.void

/** Runs the handler as `userId`: the request log names the user, and every line logged under it carries `user_id`. */
const asUser = <A, E, R>(
  request: HttpServerRequest.HttpServerRequest,
  userId: UserId,
  handler: Effect.Effect<A, E, R>
) => {
  noteRequestUser(request, userId)
  return Effect.provideService(handler, CurrentUser, { userId }).pipe(Effect.annotateLogs("user_id", userId))
}

export const UserSessionLayer = Layer.effect(UserSession)(
  Effect.gen(function* () {
    const sessions = yield* WebSessions
    const config = yield* HttpConfig
    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const userId = yield* sessions.user(request)
        if (Option.isNone(userId))
          return yield* new Unauthorized({ detail: "Not authenticated", code: "not_authenticated" })
        yield* checkOrigin(request, config.publicUrl)
        return yield* asUser(request, userId.value, httpEffect)
      })
  })
)

export const OperatorSessionLayer = Layer.effect(OperatorSession)(
  Effect.gen(function* () {
    const sessions = yield* WebSessions
    const config = yield* HttpConfig
    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (!(yield* sessions.operator(request)))
          return yield* new Unauthorized({ detail: "Not authenticated", code: "not_authenticated" })
        yield* checkOrigin(request, config.publicUrl)
        noteRequestUser(request, "operator")
        return yield* Effect.provideService(httpEffect, CurrentOperator, { via: "session" })
      })
  })
)

export const ApiKeyAuthLayer = Layer.effect(ApiKeyAuth)(
  Effect.gen(function* () {
    const accounts = yield* Accounts
    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const key = request.headers["x-api-key"]
        const user = yield* accounts
          .authenticate(key === undefined ? undefined : Redacted.make(key))
          .pipe(
            Effect.mapError(() =>
              key === undefined
                ? new Unauthorized({ detail: "Missing X-API-Key header", code: "api_key_missing" })
                : new Unauthorized({ detail: "Invalid API key", code: "api_key_invalid" })
            )
          )
        return yield* asUser(request, user.id, httpEffect)
      })
  })
)

export const AdminTokenAuthLayer = Layer.effect(AdminTokenAuth)(
  Effect.gen(function* () {
    const config = yield* HttpConfig
    const guard = yield* OperatorTokenGuard
    const trusted = trustedProxies(config.trustedProxies)
    const expected = Redacted.value(config.adminToken)
    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const token = request.headers["x-admin-token"]
        if (token === undefined)
          return yield* new Unauthorized({ detail: "Missing X-Admin-Token header", code: "admin_token_missing" })
        // A blocked address's token is not even compared (guessing must not go on while blocked).
        const client = limitKey(clientAddress(request, trusted))
        const wait = yield* guard.waitFor(client)
        if (wait > 0) {
          yield* retryAfter(wait)
          return yield* new TooManyRequests({ detail: tooManyFailures(wait), code: "rate_limited" })
        }
        if (!safeEqual(token, expected)) {
          yield* guard.failed(client, "x-admin-token")
          return yield* new Unauthorized({ detail: "Invalid admin token", code: "admin_token_invalid" })
        }
        yield* guard.succeeded(client)
        noteRequestUser(request, "operator")
        return yield* Effect.provideService(httpEffect, CurrentOperator, { via: "token" })
      })
  })
)

export const AuthMiddlewareLayer = Layer.mergeAll(
  UserSessionLayer,
  OperatorSessionLayer,
  ApiKeyAuthLayer,
  AdminTokenAuthLayer
)
