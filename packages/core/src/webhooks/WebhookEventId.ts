import { Effect } from "effect"
import { randomBytes } from "../Secrets.ts"

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** Random characters of an event id: 22 base62 characters hold about 131 random bits. */
export const WEBHOOK_EVENT_ID_CHARS = 22

/**
 * A new webhook event id, `evt_` and 22 random base62 characters. Random, not a sequence or a time:
 * an integrator comparing two ids learns nothing about the platform's volume. Drawn once when the
 * outbox event is written, so every retry and every re-run fan-out reuses it.
 */
export const newWebhookEventId: Effect.Effect<string> = Effect.gen(function* () {
  let id = "evt_"
  while (id.length < 4 + WEBHOOK_EVENT_ID_CHARS) {
    for (const byte of yield* randomBytes(32)) {
      // 248 = 4 * 62: bytes above it are dropped so every character is equally likely.
      if (byte < 248 && id.length < 4 + WEBHOOK_EVENT_ID_CHARS) id += BASE62[byte % 62]
    }
  }
  return id
})
