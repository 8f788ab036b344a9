import { Schema } from "effect"

/** The outcome of claiming an idempotency key. */
export type IdempotencyBegin =
  | { readonly _tag: "New" }
  /** Completed earlier with the same request: answer with the stored (encoded) response. */
  | { readonly _tag: "Replay"; readonly response: unknown }
  /** The same key was used with a different request body. */
  | { readonly _tag: "Conflict" }
  /** The same key and body are being processed right now. */
  | { readonly _tag: "InProgress" }

/** Same key, different request: the spec's 409. */
export class IdempotencyKeyConflict extends Schema.TaggedError<IdempotencyKeyConflict>()("IdempotencyKeyConflict", {
  scope: Schema.String
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
