import { Data, Effect, Redacted } from "effect"
import { HttpServerResponse } from "effect/http"
import type { HttpServerRequest } from "effect/http"
import { clientAddress, limitKey, trustedProxies } from "./ClientAddress.ts"
import { HttpConfig } from "./HttpConfig.ts"
import { OperatorTokenGuard } from "./OperatorTokenGuard.ts"
import { safeEqual } from "./TelegramLogin.ts"
import { type CookieToSet, WebSessions } from "./WebSessions.ts"

/** The sign-in form's token was refused: wrong, or this address is blocked for `waitSeconds` after wrong ones. */
export class OperatorSignInRefused extends Data.TaggedError("OperatorSignInRefused")<{
  readonly reason: "invalid" | "blocked"
  /** How long a blocked address waits (0 for a wrong token). */
  readonly waitSeconds: number
}> {}

/**
 * The operator's sign-in with the admin token (the JSON route and the web's form alike): throttled
 * per address like `X-Admin-Token`, so a blocked address's token is not even compared. The session
 * cookie to set, or why not.
 */
export const signInOperator = (request: HttpServerRequest.HttpServerRequest, token: string | undefined) =>
  Effect.gen(function* () {
    const config = yield* HttpConfig
    const guard = yield* OperatorTokenGuard
    const client = limitKey(clientAddress(request, trustedProxies(config.trustedProxies)))
    const wait = yield* guard.waitFor(client)
    if (wait > 0) return yield* new OperatorSignInRefused({ reason: "blocked", waitSeconds: wait })
    if (!safeEqual(token ?? "", Redacted.value(config.adminToken))) {
      yield* guard.failed(client, "sign-in form")
      return yield* new OperatorSignInRefused({ reason: "invalid", waitSeconds: 0 })
    }
    yield* guard.succeeded(client)
    return yield* WebSessions.use((sessions) => sessions.startOperator)
  })

/** A 303 to `location` that sets (or clears) a session cookie. */
export const redirectWithCookie = (location: string, cookie: CookieToSet, secure: boolean) =>
  HttpServerResponse.redirect(location, { status: 303 }).pipe(
    HttpServerResponse.setCookieUnsafe(cookie.name, cookie.value, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure,
      maxAge: `${cookie.maxAgeSeconds} seconds`,
      ...(cookie.maxAgeSeconds === 0 ? { expires: new Date(0) } : {})
    })
  )
