import { type Session, Sessions, type UserId } from "@resale/core"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpConfig } from "../server/HttpConfig.ts"
import { ADMIN_COOKIE, newSessionToken, sessionIdOf, signCookie, unsignCookie, USER_COOKIE } from "./SessionCookie.ts"

const USER_TTL_MS = 30 * 24 * 60 * 60 * 1000
const OPERATOR_TTL_MS = 12 * 60 * 60 * 1000

export interface CookieToSet {
  readonly name: string
  readonly value: string
  readonly maxAgeSeconds: number
}

/** Server-side sessions behind signed, HttpOnly, SameSite=Lax cookies. */
export class WebSessions extends Context.Service<WebSessions, {
  readonly startUser: (userId: UserId) => Effect.Effect<CookieToSet>
  readonly startOperator: Effect.Effect<CookieToSet>
  readonly user: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<Option.Option<UserId>>
  readonly operator: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<boolean>
  /** Ends the session of `cookie` if any; returns the cookie to clear. */
  readonly end: (request: HttpServerRequest.HttpServerRequest, cookie: string) => Effect.Effect<CookieToSet>
  readonly secureCookies: boolean
}>()("http/auth/WebSessions") {
  static readonly layer = Layer.effect(
    WebSessions,
    Effect.gen(function*() {
      const sessions = yield* Sessions
      const config = yield* HttpConfig
      const secret = Redacted.value(config.cookieSecret)
      const now = Effect.map(Effect.clockWith((clock) => clock.currentTimeMillis), (ms) => new Date(ms))

      const start = Effect.fn("WebSessions.start")(function*(subject: Session["subject"], ttl: number, name: string) {
        const token = newSessionToken()
        const at = yield* now
        yield* sessions.create({ id: sessionIdOf(token), subject, createdAt: at, expiresAt: new Date(at.getTime() + ttl) })
        return { name, value: signCookie(token, secret), maxAgeSeconds: Math.floor(ttl / 1000) }
      })

      const find = (request: HttpServerRequest.HttpServerRequest, cookie: string) =>
        Effect.gen(function*() {
          const token = unsignCookie(request.cookies[cookie], secret)
          if (token === undefined) return Option.none<Session>()
          return yield* sessions.find(sessionIdOf(token), yield* now)
        })

      return WebSessions.of({
        startUser: (userId) => start({ kind: "user", userId }, USER_TTL_MS, USER_COOKIE),
        startOperator: start({ kind: "operator" }, OPERATOR_TTL_MS, ADMIN_COOKIE),
        user: (request) =>
          Effect.map(find(request, USER_COOKIE), (session) =>
            Option.flatMap(session, (s) => s.subject.kind === "user" ? Option.some(s.subject.userId) : Option.none())),
        operator: (request) =>
          Effect.map(find(request, ADMIN_COOKIE), (session) =>
            Option.isSome(session) && session.value.subject.kind === "operator"),
        end: Effect.fn("WebSessions.end")(function*(request, cookie) {
          const token = unsignCookie(request.cookies[cookie], secret)
          if (token !== undefined) yield* sessions.remove(sessionIdOf(token))
          return { name: cookie, value: "", maxAgeSeconds: 0 }
        }),
        secureCookies: config.publicUrl.startsWith("https://")
      })
    })
  )
}
