/**
 * `WebhookSender` over effect's `HttpClient` (undici, `@resale/outbound`): signs (Standard Webhooks),
 * POSTs and answers the status code. The body of the answer is never read: the request is closed as
 * soon as its status arrives, so a receiver streaming an endless body cannot hold the worker or fill
 * its memory. No redirect is followed. Every address the target's name resolves to is checked when
 * the socket connects (public only; loopback too when the sandbox allows it).
 *
 * What is retried inside one send, under the product's one retry policy (`WEBHOOK_POLICY`): a POST
 * whose connection was refused or dropped before any answer, once, at once (receivers dedupe by
 * `webhook-id`, the same on every try, so a repeat is harmless), and a 429 that asks for at most a
 * second. An answer (2xx or not) and a receiver too slow to answer are the attempt's outcome: the
 * outbox (`WebhookDispatch`) records it and retries on its own schedule (backoff for a day), so one
 * attempt stays well inside the dispatch's send bound.
 */
import { WebhookSendError, WebhookSender } from "@resale/core/ports/WebhookSender.ts"
import { checkWebhookUrl, isLoopbackAddress, WebhookPolicy } from "@resale/core/webhooks/WebhookTargets.ts"
import { DEFAULT_POLICY, retrying, type RetryPolicy } from "@resale/outbound/RetryPolicy.ts"
import { undiciHttp } from "@resale/outbound/OutboundHttp.ts"
import { Cause, Context, Duration, Effect, Layer, Result, Scope } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { createHmac } from "node:crypto"
import { isIP } from "node:net"
import { isPublicAddress, lookupAllowing, refusedByLookup } from "./AddressGuard.ts"

/** A receiver that takes longer than this to answer counts as a failed attempt (the outbox retries it). */
export const SEND_TIMEOUT_MS = 10_000

/** The one retry policy with a webhook's parameters (see above). */
export const WEBHOOK_POLICY: RetryPolicy = {
  ...DEFAULT_POLICY,
  repeatable: true,
  repeatOn: "connection",
  times: 1,
  firstDelay: Duration.millis(250),
  attemptTimeout: Duration.millis(SEND_TIMEOUT_MS),
  longestWait: Duration.seconds(1)
}

/**
 * Standard Webhooks' signature: base64 HMAC-SHA256, keyed with the bytes after `whsec_`, over
 * `${id}.${timestamp}.${body}`; sent as `v1,<signature>`.
 */
export const signWebhook = (secret: string, id: string, timestamp: number, body: string): string =>
  `v1,${createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64"))
    .update(`${id}.${timestamp}.${body}`)
    .digest("base64")}`

const refused = (message: string) => new WebhookSendError({ reason: "Refused", message })

const unreachable = (error: unknown) =>
  Cause.isTimeoutError(error)
    ? new WebhookSendError({ reason: "Timeout", message: `no answer within ${SEND_TIMEOUT_MS} ms` })
    : new WebhookSendError({ reason: "Unreachable", message: `no answer: ${causeText(error)}`.slice(0, 300) })

/** The innermost message of a transport failure (ECONNREFUSED, a TLS error, a reset), for the delivery log. */
const causeText = (error: unknown): string => {
  let current: unknown = error
  for (let depth = 0; depth < 6; depth++) {
    const next =
      (current as { cause?: unknown; reason?: unknown } | null)?.reason ??
      (current as { cause?: unknown } | null)?.cause
    if (next === undefined || next === null || typeof next !== "object") break
    current = next
  }
  return current instanceof Error ? current.message : "the connection failed"
}

export const HttpsWebhookSender = Layer.effect(
  WebhookSender,
  Effect.gen(function* () {
    const policy = yield* WebhookPolicy
    const allowed = (address: string) =>
      isPublicAddress(address) || (policy.allowLoopback && isLoopbackAddress(address))
    // Its own agent (its own memo map: a shared undici layer would bring another client's unguarded agent),
    // living as long as the sender; every send runs with it.
    const clientContext = yield* Layer.buildWithMemoMap(
      undiciHttp({ connect: { lookup: lookupAllowing(allowed) }, connectTimeout: WEBHOOK_POLICY.attemptTimeout }),
      Layer.makeMemoMapUnsafe(),
      yield* Scope.Scope
    )
    const client = HttpClient.withScope(Context.get(clientContext, HttpClient.HttpClient))

    const send = (
      target: { readonly url: string; readonly secret: string },
      message: { readonly id: string; readonly timestamp: number; readonly body: string }
    ) =>
      Effect.gen(function* () {
        // The registration rule again (an endpoint stored under older rules, another port): refused, not sent.
        const checked = checkWebhookUrl(target.url, policy)
        if (Result.isFailure(checked)) return yield* refused(checked.failure.message)
        const url = checked.success
        const host = url.hostname.replace(/^\[|\]$/g, "")
        // An address literal is connected to without a lookup: check it here.
        if (isIP(host) !== 0 && !allowed(host)) return yield* refused("the target is not a public address")

        const request = HttpClientRequest.post(url).pipe(
          HttpClientRequest.setHeaders({
            "user-agent": "resale-webhooks/1",
            "webhook-id": message.id,
            "webhook-timestamp": String(message.timestamp),
            "webhook-signature": signWebhook(target.secret, message.id, message.timestamp, message.body)
          }),
          HttpClientRequest.bodyText(message.body, "application/json")
        )
        // One attempt: the status and headers (for the policy); leaving the scope closes the request.
        const attempt = Effect.scoped(
          Effect.map(client.execute(request), (answer) => ({ status: answer.status, headers: answer.headers }))
        ).pipe(
          // A refused address is final, never retried.
          Effect.catchIf(
            (error) => refusedByLookup(error),
            () => Effect.fail(refused("the target resolves to a non-public address"))
          )
        )
        const answer = yield* attempt.pipe(
          retrying(WEBHOOK_POLICY),
          Effect.mapError((error) => (error instanceof WebhookSendError ? error : unreachable(error)))
        )
        return answer.status
      }).pipe(Effect.provide(clientContext), Effect.withSpan("WebhookSender.send"))

    return WebhookSender.of({ send })
  })
)
