import { Schema } from "effect"
import { UserId } from "../ids.ts"

/** Whom a session belongs to: a signed-in user, or an operator (admin token login). */
export const SessionSubject = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("user"), userId: UserId }),
  Schema.Struct({ kind: Schema.Literal("operator") })
])
export type SessionSubject = typeof SessionSubject.Type

export const Session = Schema.Struct({
  /** Opaque lookup key chosen by the http layer (store a hash of the cookie value, not the value). */
  id: Schema.String,
  subject: SessionSubject,
  createdAt: Schema.Date,
  expiresAt: Schema.Date
})
export type Session = typeof Session.Type

/** Who is asking: owners see their own records, operators see all (same shape as a session subject). */
export type Viewer = SessionSubject

export const canSee = (viewer: Viewer, ownerId: UserId): boolean =>
  viewer.kind === "operator" || viewer.userId === ownerId
