import type { Session, UserId } from "@resale/core"
import { SessionService } from "@resale/core/sessions/SessionService.ts"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpConfig } from "./HttpConfig.ts"
import { ADMIN_COOKIE, signCookie, unsignCookie, USER_COOKIE } from "./SessionCookie.ts"

export interface CookieToSet {
  readonly name: string
  readonly value: string
  readonly maxAgeSeconds: number
}

/** Server-side sessions (core SessionService) behind signed, HttpOnly, SameSite=Lax cookies. */
export class WebSessions extends Context.Service<
  WebSessions,
  {
    readonly startUser: (userId: UserId) => Effect.Effect<CookieToSet>
    readonly startOperator: Effect.Effect<CookieToSet>
    readonly user: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<Option.Option<UserId>>
    readonly operator: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<boolean>
    /** Ends the session of `cookie` if any; returns the cookie to clear. */
    readonly end: (request: HttpServerRequest.HttpServerRequest, cookie: string) => Effect.Effect<CookieToSet>
    readonly secureCookies: boolean
  }
>()("http/auth/WebSessions") {
  static readonly layer = Layer.effect(
    WebSessions,
    Effect.gen(function* () {
      const sessions = yield* SessionService
      const config = yield* HttpConfig
      const secret = Redacted.value(config.cookieSecret)

      const start = Effect.fn("WebSessions.start")(function* (subject: Session["subject"], name: string) {
        const { session, token } = yield* sessions.open(subject)
        const maxAgeSeconds = Math.max(
          0,
          Math.floor((session.expiresAt.getTime() - session.createdAt.getTime()) / 1000)
        )
        return { name, value: signCookie(Redacted.value(token), secret), maxAgeSeconds }
      })

      const find = (request: HttpServerRequest.HttpServerRequest, cookie: string) => {
        const token = unsignCookie(request.cookies[cookie], secret)
        return token === undefined ? Effect.succeed(Option.none<Session>()) : sessions.resolve(token)
      }

      return WebSessions.of({
        startUser: (userId) => start({ kind: "user", userId }, USER_COOKIE),
        startOperator: start({ kind: "operator" }, ADMIN_COOKIE),
        user: (request) =>
          Effect.map(find(request, USER_COOKIE), (session) =>
            Option.flatMap(session, (s) => (s.subject.kind === "user" ? Option.some(s.subject.userId) : Option.none()))
          ),
        operator: (request) =>
          Effect.map(
            find(request, ADMIN_COOKIE),
            (session) => Option.isSome(session) && session.value.subject.kind === "operator"
          ),
        end: Effect.fn("WebSessions.end")(function* (request, cookie) {
          const token = unsignCookie(request.cookies[cookie], secret)
          if (token !== undefined) yield* sessions.close(token)
          return { name: cookie, value: "", maxAgeSeconds: 0 }
        }),
        secureCookies: config.publicUrl.startsWith("https://")
      })
    })
  )
}
