import { Context, Effect, Layer, type Option, Redacted } from "effect"
import { Sessions } from "../ports/Sessions.ts"
import { randomToken, sha256Hasher } from "../Secrets.ts"
import { addMillis, currentDate } from "../Time.ts"
import type { Session, SessionSubject } from "./Session.ts"

export const USER_SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000
export const OPERATOR_SESSION_TTL_MS = 12 * 60 * 60 * 1000

/**
 * Server-side sessions. The cookie carries a random token; only its SHA-256 is stored, so a
 * database read does not yield usable sessions.
 */
export class SessionService extends Context.Service<
  SessionService,
  {
    /** A new session; the token goes into the cookie and is not kept anywhere else. */
    readonly open: (subject: SessionSubject) => Effect.Effect<{
      readonly token: Redacted.Redacted<string>
      readonly session: Session
    }>
    /** The live session of a cookie token, if any. */
    readonly resolve: (token: Redacted.Redacted<string> | string) => Effect.Effect<Option.Option<Session>>
    /** Sign-out; idempotent. */
    readonly close: (token: Redacted.Redacted<string> | string) => Effect.Effect<void>
    /**
     * A sign-in payload's signature, used once only: true the first time, false for a replay. Only
     * its hash is kept, until `keepUntil` (when the payload would be refused as too old anyway).
     */
    readonly claimLogin: (signature: string, keepUntil: Date) => Effect.Effect<boolean>
    /** Worker: deletes expired sessions. */
    readonly sweep: Effect.Effect<number>
  }
>()("core/sessions/SessionService") {
  static readonly layer = Layer.effect(
    SessionService,
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const sha256Hex = yield* sha256Hasher
      const idOf = (token: Redacted.Redacted<string> | string) =>
        sha256Hex(typeof token === "string" ? token : Redacted.value(token))

      const open = Effect.fn("SessionService.open")(function* (subject: SessionSubject) {
        const raw = yield* randomToken(32)
        const now = yield* currentDate
        const ttl = subject.kind === "user" ? USER_SESSION_TTL_MS : OPERATOR_SESSION_TTL_MS
        const session: Session = { id: yield* sha256Hex(raw), subject, createdAt: now, expiresAt: addMillis(now, ttl) }
        yield* sessions.create(session)
        return { token: Redacted.make(raw, { label: "SessionToken" }), session }
      })

      const resolve = Effect.fn("SessionService.resolve")(function* (token: Redacted.Redacted<string> | string) {
        return yield* sessions.find(yield* idOf(token), yield* currentDate)
      })

      const close = Effect.fn("SessionService.close")(function* (token: Redacted.Redacted<string> | string) {
        yield* sessions.remove(yield* idOf(token))
      })

      const claimLogin = Effect.fn("SessionService.claimLogin")(function* (signature: string, keepUntil: Date) {
        return yield* sessions.claimLogin(yield* sha256Hex(signature), keepUntil)
      })

      const sweep = Effect.gen(function* () {
        return yield* sessions.removeExpired(yield* currentDate)
      }).pipe(Effect.withSpan("SessionService.sweep"))

      return SessionService.of({ open, resolve, close, claimLogin, sweep })
    })
  )
}
