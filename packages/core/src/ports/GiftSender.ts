/**
 * GiftSender port: Telegram star gifts sent from named sender accounts (`user`, `girl`, ... from
 * config), and the catalogue of gifts on sale.
 *
 * Contract:
 * 1. `send` sends ONE gift and answers after Telegram accepted (`GiftSent`) or refused it. Telegram
 *    has no idempotency key for gifts, so a caller that may retry must record the attempt first.
 * 2. A failure with reason `Timeout` means the outcome is UNKNOWN (the request may have been
 *    executed): never send again before `findSent` says nothing was sent. Every other reason means
 *    nothing was sent.
 * 3. `findSent` looks the sender account's history up for a gift of `giftId` to `recipient` sent
 *    at or after `since` (the instant the caller recorded before its `send`).
 * 4. `catalogue` lists the gifts on sale (adapters cache it); ids are numeric strings.
 * Errors carry a `message` that is safe to show and log (never session keys or tokens).
 */
import { Context, type Effect, type Option, Schema } from "effect"

/** A gift on sale: `id` is Telegram's gift id as a numeric string. */
export const StarGift = Schema.Struct({
  id: Schema.String,
  /** price in stars */
  stars: Schema.Int,
  title: Schema.NullOr(Schema.String),
  /** limited edition: `remaining` of `total` are left (null when unlimited) */
  remaining: Schema.NullOr(Schema.Int),
  total: Schema.NullOr(Schema.Int),
  soldOut: Schema.Boolean,
  /** its picture (an https or data: image URL) when the sender provides one */
  picture: Schema.optionalKey(Schema.String)
})
export type StarGift = typeof StarGift.Type

export interface GiftRequest {
  /** Sender account name from config; null = the default (first configured) account. */
  readonly account: string | null
  /** Recipient's username, without the at-sign. */
  readonly recipient: string
  readonly giftId: string
  /** Text shown with the gift; null = none. */
  readonly message: string | null
  /** Hide the sender's name from the recipient. */
  readonly anonymous: boolean
}

/** Proof of a sent gift: the adapter's reference (e.g. the service message id) and the instant. */
export const GiftSent = Schema.Struct({
  account: Schema.String,
  reference: Schema.String,
  sentAt: Schema.Date
})
export type GiftSent = typeof GiftSent.Type

/**
 * Why a gift could not be sent.
 * - UnknownAccount: no sender account of that name is configured (permanent).
 * - RecipientNotFound: no Telegram user with that username (permanent).
 * - GiftUnavailable: no such gift, or sold out (permanent).
 * - Rejected: Telegram refused the gift for this recipient or message (permanent).
 * - InsufficientStars: the sender account's Stars balance is too low (an operator tops it up).
 * - FloodWait: Telegram asked to slow down; nothing was sent.
 * - Unavailable: network or Telegram failure before the gift was requested; nothing was sent.
 * - Timeout: no answer to the send itself: the outcome is unknown (see the contract).
 */
export const GiftSenderErrorReason = Schema.Literals([
  "UnknownAccount",
  "RecipientNotFound",
  "GiftUnavailable",
  "Rejected",
  "InsufficientStars",
  "FloodWait",
  "Unavailable",
  "Timeout"
])
export type GiftSenderErrorReason = typeof GiftSenderErrorReason.Type

export class GiftSenderError extends Schema.TaggedError<GiftSenderError>()("GiftSenderError", {
  reason: GiftSenderErrorReason,
  message: Schema.String,
  /** FloodWait: seconds Telegram asked to wait. */
  retryAfterSeconds: Schema.optionalKey(Schema.Int)
}) {}

/** Reasons that may succeed later without anyone changing the order (retry with backoff). */
export const isGiftFailureTransient = (error: GiftSenderError): boolean =>
  error.reason === "InsufficientStars" || error.reason === "FloodWait" || error.reason === "Unavailable"

export class GiftSender extends Context.Service<
  GiftSender,
  {
    /** Configured account names; the first is the default. */
    readonly accounts: ReadonlyArray<string>
    readonly catalogue: Effect.Effect<ReadonlyArray<StarGift>, GiftSenderError>
    readonly send: (request: GiftRequest) => Effect.Effect<GiftSent, GiftSenderError>
    readonly findSent: (request: GiftRequest, since: Date) => Effect.Effect<Option.Option<GiftSent>, GiftSenderError>
  }
>()("core/ports/GiftSender") {}
