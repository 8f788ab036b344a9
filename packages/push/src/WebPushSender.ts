import { type Notice, NotifierError, type PushTarget } from "@resale/core/ports/Notifier.ts"
import { checkEndpoint, type PushPolicyShape } from "@resale/core/push/PushEndpointRules.ts"
import { Effect, Redacted, Result } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { refusedByLookup } from "./AddressGuard.ts"
import type { VapidKeys } from "./VapidKeys.ts"

export interface WebPushOptions {
  readonly keys: VapidKeys
  /** VAPID `sub` claim (mailto: or https: contact) */
  readonly subject: string
  /** seconds the push service keeps an undelivered message */
  readonly ttlSeconds?: number
  /** Where endpoints may point (checked again here: a stored subscription may predate the rules). */
  readonly policy?: PushPolicyShape
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
 * `Authorization` header; effect's `HttpClient` in context posts it (web-push's own sender speaks
 * https only), with the product's one retry policy for transient failures.
 * 404/410 -> Gone (drop the subscription), 429/5xx/no answer -> Unavailable, other 4xx -> Rejected.
 */
const loadWebPush = () => import("web-push").then((m) => m.default)

export const makeWebPushSender = (options: WebPushOptions) =>
  Effect.map(Effect.service(HttpClient.HttpClient), (client) =>
    Effect.fn("WebPush.send")(function* (target: PushTarget, notice: Notice) {
      // An endpoint that is not https on a push service is never requested: the subscription is dropped.
      if (options.policy !== undefined && Result.isFailure(checkEndpoint(target.endpoint, options.policy))) {
        return yield* failure("Gone", `push subscription refused: not a known push service`)
      }
      // Loaded on the first push, not at start: web-push and its crypto dependencies are many modules.
      const webpush = yield* Effect.promise(loadWebPush)
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
      // The client sets the length and type of the body itself.
      const { "Content-Length": _length, "Content-Type": type, ...headers } = details.headers as Record<string, string>
      const request = HttpClientRequest.post(details.endpoint).pipe(
        HttpClientRequest.setHeaders(headers),
        HttpClientRequest.bodyUint8Array(details.body, type ?? "application/octet-stream")
      )
      const status = yield* client.execute(request).pipe(
        // The push service's answer body says nothing we use; reading it frees the connection.
        Effect.tap((response) => Effect.ignore(response.text)),
        Effect.map((response) => response.status),
        Effect.mapError((error) =>
          refusedByLookup(error)
            ? failure("Gone", `push service ${originOf(target.endpoint)} resolves to a non-public address`)
            : failure("Unavailable", `push service ${originOf(target.endpoint)} did not answer`)
        )
      )
      if (status >= 200 && status < 300) return
      const where = `push service ${originOf(target.endpoint)} answered ${status}`
      if (status === 404 || status === 410) return yield* failure("Gone", where)
      if (status === 429 || status >= 500) return yield* failure("Unavailable", where)
      return yield* failure("Rejected", where)
    })
  )
