import { Schema } from "effect"

/** The outcome of claiming an idempotency key. */
export type IdempotencyBegin =
  | { readonly _tag: "New" }
  /** Completed earlier with the same request: answer with the stored (encoded) response. */
  | { readonly _tag: "Replay"; readonly response: unknown }
  /** The same key was used with a different request body, or for another endpoint. */
  | { readonly _tag: "Conflict"; readonly reason: IdempotencyConflictReason }
  /** The same key and body are being processed right now. */
  | { readonly _tag: "InProgress" }

export const IdempotencyConflictReason = Schema.Literals(["OtherRequest", "OtherEndpoint"])
export type IdempotencyConflictReason = typeof IdempotencyConflictReason.Type

/**
 * Same key, different request (the spec's 409): another body on the same endpoint, or any use on
 * another endpoint (a key belongs to one request of its owner, whichever money-moving endpoint).
 */
export class IdempotencyKeyConflict extends Schema.TaggedError<IdempotencyKeyConflict>()("IdempotencyKeyConflict", {
  scope: Schema.String,
  reason: IdempotencyConflictReason
}) {}

/** Same key while the first request is still running: the caller retries later. */
export class IdempotencyKeyInProgress extends Schema.TaggedError<IdempotencyKeyInProgress>()(
  "IdempotencyKeyInProgress",
  { scope: Schema.String }
) {}

/** A key that is empty or longer than 255 characters. */
export class IdempotencyKeyInvalid extends Schema.TaggedError<IdempotencyKeyInvalid>()("IdempotencyKeyInvalid", {
  message: Schema.String
}) {}

export const IDEMPOTENCY_KEY_MAX = 255

/** A key lives this long (Stripe's 24 hours): after it, the same key is a new request, and the record is pruned. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000
