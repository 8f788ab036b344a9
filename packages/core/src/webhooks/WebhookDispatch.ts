import { Context, Effect, Layer, Random } from "effect"
import { addMillis, currentDate } from "../Time.ts"
import type { WebhookDelivery, WebhookEndpoint } from "./Webhook.ts"
import { WebhookEndpoints } from "../ports/WebhookEndpoints.ts"
import { WebhookSender } from "../ports/WebhookSender.ts"

/** How long deliveries are retried before they are marked failed. */
export const RETRY_WINDOW_MS = 24 * 3_600_000
/** First retry delay; it doubles per attempt up to `MAX_DELAY_MS`. */
export const BASE_DELAY_MS = 30_000
export const MAX_DELAY_MS = 4 * 3_600_000
/** How long a claimed delivery stays invisible to other workers (longer than its batch's sends). */
export const DELIVERY_LEASE_MS = 120_000
/** Longest one send may take, whatever the sender does. */
export const SEND_BOUND_MS = 15_000

/**
 * The delay after the `attempts`-th failed attempt: exponential, capped, with "equal jitter"
 * (half fixed, half random) so endpoints that failed together do not all come back together.
 */
export const retryDelayMs = (attempts: number, random: number): number => {
  const full = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1))
  return Math.round(full / 2 + (full / 2) * random)
}

/** Sends due webhook deliveries: 2xx delivers, anything else retries with backoff for a day, then fails. */
export class WebhookDispatch extends Context.Service<
  WebhookDispatch,
  {
    /** Claims up to `batch` due deliveries and attempts each once; how many it took. */
    readonly runOnce: (batch: number) => Effect.Effect<number>
  }
>()("core/webhooks/WebhookDispatch") {
  static readonly layer = Layer.effect(
    WebhookDispatch,
    Effect.gen(function* () {
      const store = yield* WebhookEndpoints
      const sender = yield* WebhookSender

      const attempt = Effect.fn("WebhookDispatch.attempt")(function* (
        delivery: WebhookDelivery,
        endpoint: WebhookEndpoint
      ) {
        const now = yield* currentDate
        const answer = yield* sender
          .send(
            { url: endpoint.url, secret: endpoint.secret },
            { id: delivery.eventId, timestamp: Math.floor(now.getTime() / 1000), body: delivery.body }
          )
          .pipe(
            // The sender has its own timeout; this bound keeps a stuck send inside the claim's lease.
            Effect.timeout(SEND_BOUND_MS),
            Effect.map((code) => ({ code, error: null })),
            Effect.catch((e) =>
              Effect.succeed({ code: null, error: e._tag === "WebhookSendError" ? e.message : "no answer in time" })
            )
          )
        const after = yield* currentDate
        if (answer.code !== null && answer.code >= 200 && answer.code < 300) {
          return yield* store.recordAttempt(
            delivery.id,
            { status: "delivered", statusCode: answer.code, error: null, nextAttemptAt: null },
            after
          )
        }
        const error = (answer.error ?? `answered ${answer.code}`).slice(0, 500)
        const next = addMillis(after, retryDelayMs(delivery.attempts + 1, yield* Random.next))
        const giveUp = next.getTime() - delivery.createdAt.getTime() > RETRY_WINDOW_MS
        yield* store.recordAttempt(
          delivery.id,
          {
            status: giveUp ? "failed" : "pending",
            statusCode: answer.code,
            error,
            nextAttemptAt: giveUp ? null : next
          },
          after
        )
      })

      const runOnce = (batch: number) =>
        Effect.gen(function* () {
          const due = yield* store.claimDue(yield* currentDate, batch, DELIVERY_LEASE_MS)
          yield* Effect.forEach(due, ({ delivery, endpoint }) => attempt(delivery, endpoint), {
            concurrency: 4,
            discard: true
          })
          return due.length
        }).pipe(Effect.withSpan("WebhookDispatch.runOnce"))

      return WebhookDispatch.of({ runOnce })
    })
  )
}
