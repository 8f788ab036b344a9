import { WebhookSendError, WebhookSender } from "@resale/core/webhooks/WebhookSender.ts"
import { isLoopbackAddress, WebhookPolicy } from "@resale/core/webhooks/WebhookTargets.ts"
import { isPublicAddress } from "./AddressGuard.ts"
import { Effect, Layer } from "effect"
import { createHmac } from "node:crypto"
import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import { isIP } from "node:net"

/** A receiver that takes longer than this to answer counts as a failed attempt (retried). */
export const SEND_TIMEOUT_MS = 10_000

/**
 * Standard Webhooks' signature: base64 HMAC-SHA256, keyed with the bytes after `whsec_`, over
 * `${id}.${timestamp}.${body}`; sent as `v1,<signature>`.
 */
export const signWebhook = (secret: string, id: string, timestamp: number, body: string): string =>
  `v1,${createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64")).update(`${id}.${timestamp}.${body}`).digest("base64")}`

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | ReadonlyArray<LookupAddress>, family?: number) => void

/**
 * Resolves the host and refuses it unless every address is public (web push's address rules, or
 * loopback when the sandbox allows it): the check happens as the socket connects, so a name that re-resolves to a private
 * address after registration is still refused.
 */
const guardedLookup = (allowLoopback: boolean) =>
(hostname: string, options: { readonly all?: boolean }, callback: LookupCallback): void => {
  dnsLookup(hostname, { all: true }, (error, addresses) => {
    if (error !== null) return callback(error, [])
    const bad = addresses.find((a) => !isPublicAddress(a.address) && !(allowLoopback && isLoopbackAddress(a.address)))
    if (bad !== undefined || addresses.length === 0) {
      const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to a non-public address`)
      refused.code = "EWEBHOOKREFUSED"
      return callback(refused, [])
    }
    if (options.all === true) return callback(null, addresses)
    callback(null, addresses[0]!.address, addresses[0]!.family)
  })
}

/** `WebhookSender` over node's http(s): signs, posts with a timeout, answers the status code (the body is not read; no redirects are followed). */
export const HttpsWebhookSender = Layer.effect(
  WebhookSender,
  Effect.gen(function*() {
    const policy = yield* WebhookPolicy
    const lookup = guardedLookup(policy.allowLoopback)

    const send = (target: { readonly url: string; readonly secret: string }, message: { readonly id: string; readonly timestamp: number; readonly body: string }) =>
      Effect.callback<number, WebhookSendError>((resume, signal) => {
        const url = new URL(target.url)
        const host = url.hostname.replace(/^\[|\]$/g, "")
        // An address literal is connected to without a lookup: check it here.
        if (isIP(host) !== 0 && !isPublicAddress(host) && !(policy.allowLoopback && isLoopbackAddress(host))) {
          return resume(Effect.fail(new WebhookSendError({ reason: "Refused", message: "the target is not a public address" })))
        }
        const client = url.protocol === "https:" ? https : url.protocol === "http:" && policy.allowLoopback ? http : undefined
        if (client === undefined) {
          return resume(Effect.fail(new WebhookSendError({ reason: "Refused", message: "the target must be https" })))
        }
        const request = client.request(url, {
          method: "POST",
          lookup: lookup as never,
          signal,
          timeout: SEND_TIMEOUT_MS,
          headers: {
            "content-type": "application/json",
            "user-agent": "resale-webhooks/1",
            "webhook-id": message.id,
            "webhook-timestamp": String(message.timestamp),
            "webhook-signature": signWebhook(target.secret, message.id, message.timestamp, message.body)
          }
        }, (response) => {
          // Only the status matters: the body is never read, and the connection is closed at once
          // (a receiver streaming an endless body cannot hold the worker).
          resume(Effect.succeed(response.statusCode ?? 0))
          response.destroy()
        })
        request.on("timeout", () => request.destroy(new Error(`no answer within ${SEND_TIMEOUT_MS} ms`)))
        request.on("error", (error: NodeJS.ErrnoException) =>
          resume(Effect.fail(
            new WebhookSendError({ reason: error.code === "EWEBHOOKREFUSED" ? "Refused" : "Unreachable", message: error.message.slice(0, 300) })
          )))
        request.end(message.body)
      }).pipe(Effect.withSpan("WebhookSender.send"))

    return WebhookSender.of({ send })
  })
)
