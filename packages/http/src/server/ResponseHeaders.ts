import { Effect } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"

/**
 * Headers a handler adds to its answer whatever that answer turns out to be (a success encoded by
 * the HttpApi, or an error): registered on the current request, applied just before it is sent.
 * Outside a server request (a test calling a handler directly) it does nothing.
 */
export const addResponseHeader = (name: string, value: string): Effect.Effect<void> =>
  Effect.contextWith((context) =>
    Effect.sync(() =>
      HttpEffect.appendPreResponseHandlerUnsafe(context, (_request, response) =>
        Effect.succeed(HttpServerResponse.setHeader(response, name, value))
      )
    )
  )

/** `Retry-After` (seconds) on a retry-later answer: 429s and the in-progress 409. */
export const retryAfter = (seconds: number): Effect.Effect<void> => addResponseHeader("retry-after", String(seconds))

/** `Idempotent-Replayed: true` on an answer replayed from a stored idempotency key (Stripe's header). */
export const markReplayed: Effect.Effect<void> = addResponseHeader("idempotent-replayed", "true")
