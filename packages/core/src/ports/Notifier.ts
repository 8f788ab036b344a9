/**
 * Notifier port: the two channels notifications leave by, browser Web Push and Telegram bot
 * messages. Delivery is at least once: the worker retries an outbox event until every channel
 * took it, so a channel may see a message twice after a partial failure.
 */
import { Context, type Effect, Schema } from "effect"

/** Where a web push goes: a browser subscription's endpoint and keys. */
export interface PushTarget {
  readonly endpoint: string
  /** the browser's P-256 public key, base64url */
  readonly p256dh: string
  /** the browser's auth secret, base64url */
  readonly auth: string
}

/** What the user sees; the push payload is this object as JSON, encrypted for the browser. */
export interface Notice {
  readonly title: string
  readonly body: string
  /** page to open on click, relative to the site */
  readonly url?: string
  /** notifications with one tag replace each other on the device */
  readonly tag?: string
}

/**
 * Why a message was not delivered.
 * - Gone: the push subscription is dead (HTTP 404/410) or the user blocked the bot: drop it.
 * - Rejected: the request itself was refused (other 4xx): retrying will not help.
 * - Unavailable: network failure, 429 or 5xx: retry later.
 * - NotConfigured: the channel has no credentials (VAPID keys, bot token).
 */
export const NotifierErrorReason = Schema.Literals(["Gone", "Rejected", "Unavailable", "NotConfigured"])
export type NotifierErrorReason = typeof NotifierErrorReason.Type

export class NotifierError extends Schema.TaggedError<NotifierError>()("NotifierError", {
  channel: Schema.Literals(["push", "bot"]),
  reason: NotifierErrorReason,
  message: Schema.String
}) {}

export class Notifier extends Context.Service<
  Notifier,
  {
    /** Sends one encrypted, VAPID-signed web push. */
    readonly push: (target: PushTarget, notice: Notice) => Effect.Effect<void, NotifierError>
    /** Sends one bot message to a chat (plain text). */
    readonly botMessage: (chatId: number, text: string) => Effect.Effect<void, NotifierError>
  }
>()("core/ports/Notifier") {}
