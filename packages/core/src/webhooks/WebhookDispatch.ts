import { Context, Effect, Layer, Random, type Scope } from "effect"
import { addMillis, currentDate } from "../Time.ts"
import type { WebhookDelivery, WebhookEndpoint } from "./Webhook.ts"
import { WebhookEndpoints } from "../ports/WebhookEndpoints.ts"
import { WebhookSender, type WebhookSendError } from "../ports/WebhookSender.ts"

/** How long deliveries are retried before they are marked failed. */
export const RETRY_WINDOW_MS = 24 * 3_600_000
/** A `webhook.test` is retried only this long: it proves a setup, and waiting tests are capped per endpoint. */
export const TEST_RETRY_WINDOW_MS = 10 * 60_000
/** First retry delay; it doubles per attempt up to `MAX_DELAY_MS`. */
export const BASE_DELAY_MS = 30_000
export const MAX_DELAY_MS = 4 * 3_600_000
/** How long a claimed delivery (and its endpoint) stays invisible to other claims (longer than a send). */
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

/**
 * The delivery log's text for a failed attempt. Integrators read it, so it is one of a few fixed
 * phrases: a DNS failure, a name resolving to a private address and a refused connection all read
 * the same, and no address is ever echoed (the log must not become an oracle on our network).
 */
export const attemptErrorText = (failure: WebhookSendError["reason"] | "bound" | number): string =>
  typeof failure === "number"
    ? `answered ${failure}`
    : failure === "Timeout" || failure === "bound"
      ? "timed out"
      : "could not connect"

/**
 * Sends due webhook deliveries: 2xx delivers, anything else retries with backoff for a day (a test
 * for `TEST_RETRY_WINDOW_MS`), then fails. Claims are fair: one send in flight per endpoint, endpoints
 * served in turn, each send bounded, so a receiver that hangs only ever holds its own deliveries.
 */
export class WebhookDispatch extends Context.Service<
  WebhookDispatch,
  {
    /** Sends due deliveries until none is due or `batch` were attempted, waiting for each; how many. */
    readonly runOnce: (batch: number) => Effect.Effect<number>
    /** Claims the next due delivery and sends it in its own fiber in `scope`, then runs `done`; false when none is due. */
    readonly startNext: (scope: Scope.Scope, done: Effect.Effect<void>) => Effect.Effect<boolean>
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
            Effect.map((code) => ({ code, error: code >= 200 && code < 300 ? null : attemptErrorText(code) })),
            Effect.catch((e) =>
              Effect.succeed({
                code: null,
                error: attemptErrorText(e._tag === "WebhookSendError" ? e.reason : "bound")
              })
            )
          )
        const after = yield* currentDate
        if (answer.error === null) {
          return yield* store.recordAttempt(
            delivery.id,
            { status: "delivered", statusCode: answer.code, error: null, nextAttemptAt: null },
            after
          )
        }
        const window = delivery.eventType === "webhook.test" ? TEST_RETRY_WINDOW_MS : RETRY_WINDOW_MS
        const next = addMillis(after, retryDelayMs(delivery.attempts + 1, yield* Random.next))
        const giveUp = next.getTime() - delivery.createdAt.getTime() > window
        yield* store.recordAttempt(
          delivery.id,
          {
            status: giveUp ? "failed" : "pending",
            statusCode: answer.code,
            error: answer.error,
            nextAttemptAt: giveUp ? null : next
          },
          after
        )
      })

      const claim = (limit: number) =>
        Effect.flatMap(currentDate, (now) => store.claimDue(now, limit, DELIVERY_LEASE_MS))

      const runOnce = (batch: number) =>
        Effect.gen(function* () {
          let sent = 0
          // One delivery per endpoint per round: an endpoint's next one is claimable once its send is recorded.
          while (sent < batch) {
            const due = yield* claim(batch - sent)
            if (due.length === 0) break
            yield* Effect.forEach(due, ({ delivery, endpoint }) => attempt(delivery, endpoint), {
              concurrency: 4,
              discard: true
            })
            sent += due.length
          }
          return sent
        }).pipe(Effect.withSpan("WebhookDispatch.runOnce"))

      const startNext = (scope: Scope.Scope, done: Effect.Effect<void>) =>
        Effect.uninterruptible(
          Effect.gen(function* () {
            const [next] = yield* claim(1)
            if (next === undefined) return false
            yield* Effect.forkIn(Effect.ensuring(attempt(next.delivery, next.endpoint), done), scope)
            return true
          })
        ).pipe(Effect.withSpan("WebhookDispatch.startNext"))

      return WebhookDispatch.of({ runOnce, startNext })
    })
  )
}
