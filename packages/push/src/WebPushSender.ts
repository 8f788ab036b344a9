import { type Notice, NotifierError, type PushTarget } from "@resale/core/ports/Notifier.ts"
import { Effect, Redacted } from "effect"
import { request } from "undici"
import webpush from "web-push"
import type { VapidKeys } from "./VapidKeys.ts"

export interface WebPushOptions {
  readonly keys: VapidKeys
  /** VAPID `sub` claim (mailto: or https: contact) */
  readonly subject: string
  /** seconds the push service keeps an undelivered message */
  readonly ttlSeconds?: number
  readonly timeoutMs?: number
}

const failure = (reason: NotifierError["reason"], message: string) =>
  new NotifierError({ channel: "push", reason, message })

// The endpoint is a capability URL: report only its origin.
const originOf = (endpoint: string): string => {
  try {
    return new URL(endpoint).origin
  } catch {
    // not a URL at all: nothing safe to show
    return "<invalid endpoint>"
  }
}

/**
 * One web push: web-push builds the RFC 8291 (aes128gcm) encrypted body and the RFC 8292 VAPID
 * `Authorization` header; undici posts it (web-push's own sender speaks https only).
 * 404/410 -> Gone (drop the subscription), 429/5xx/network -> Unavailable, other 4xx -> Rejected.
 */
export const makeWebPushSender = (options: WebPushOptions) =>
  Effect.fn("WebPush.send")(function*(target: PushTarget, notice: Notice) {
    const details = yield* Effect.try({
      try: () =>
        webpush.generateRequestDetails(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          JSON.stringify(notice),
          {
            vapidDetails: {
              subject: options.subject,
              publicKey: options.keys.publicKey,
              privateKey: Redacted.value(options.keys.privateKey)
            },
            TTL: options.ttlSeconds ?? 24 * 3600,
            contentEncoding: "aes128gcm"
          }
        ),
      // Bad keys or endpoint in a stored subscription: it can never work.
      catch: (e) => failure("Gone", `push subscription unusable: ${e instanceof Error ? e.message : "invalid keys"}`)
    })
    const status = yield* Effect.tryPromise({
      try: async (signal) => {
        const response = await request(details.endpoint, {
          method: "POST",
          headers: details.headers as Record<string, string>,
          body: details.body,
          signal,
          headersTimeout: options.timeoutMs ?? 10_000,
          bodyTimeout: options.timeoutMs ?? 10_000
        })
        await response.body.dump()
        return response.statusCode
      },
      catch: () => failure("Unavailable", `push service ${originOf(target.endpoint)} did not answer`)
    })
    if (status >= 200 && status < 300) return
    const where = `push service ${originOf(target.endpoint)} answered ${status}`
    if (status === 404 || status === 410) return yield* failure("Gone", where)
    if (status === 429 || status >= 500) return yield* failure("Unavailable", where)
    return yield* failure("Rejected", where)
  })
