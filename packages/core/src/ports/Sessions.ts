import { Context, type Effect, type Option } from "effect"
import type { Session } from "../sessions/Session.ts"

/** Server-side sessions of web users and operators. */
export class Sessions extends Context.Service<
  Sessions,
  {
    /** Stores a new session; `id` is unique (a collision is a defect). */
    readonly create: (session: Session) => Effect.Effect<void>
    /** The session if it exists and `expiresAt` is after `now`. */
    readonly find: (id: string, now: Date) => Effect.Effect<Option.Option<Session>>
    /** Idempotent. */
    readonly remove: (id: string) => Effect.Effect<void>
    /**
     * Records a sign-in payload (by its hash) as used until `keepUntil`: true the first time, false for
     * a replay. Kept as long as the payload itself would be accepted, then swept with the sessions.
     */
    readonly claimLogin: (payloadHash: string, keepUntil: Date) => Effect.Effect<boolean>
    /** Deletes sessions (and used sign-in payloads) expired at `now`; returns how many sessions. */
    readonly removeExpired: (now: Date) => Effect.Effect<number>
  }
>()("core/ports/Sessions") {}
