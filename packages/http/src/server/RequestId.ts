import { Context, Effect } from "effect"
import { Headers, HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { randomUUID } from "node:crypto"

/**
 * The id of the request being answered: the caller's `X-Request-Id` when it is safe to echo and
 * log (1-128 of `A-Z a-z 0-9 . _ : -`), otherwise a new UUID. Echoed on every answer, put in 5xx
 * bodies (`request_id`) and in every log line of the request as the annotation `request_id`.
 */
export class RequestId extends Context.Reference<string>("http/server/RequestId", { defaultValue: () => "" }) {}

const SAFE = /^[A-Za-z0-9._:-]{1,128}$/

/** The caller's id if it is safe, else a fresh one. */
export const requestIdFor = (header: string | undefined): string =>
  header !== undefined && SAFE.test(header) ? header : randomUUID()

/**
 * Outermost middleware of the server: every answer, whichever route or failure made it (even the
 * pricing fast path, the direct surface and a 404), carries `x-request-id`.
 */
export const withRequestId = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const id = requestIdFor(request.headers["x-request-id"])
    yield* HttpEffect.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "x-request-id", id)))
    // Inner middleware (the request log) reads the safe id from the request, never the raw header.
    const withId = request.modify({ headers: Headers.set(request.headers, "x-request-id", id) })
    return yield* app.pipe(
      Effect.provideService(HttpServerRequest.HttpServerRequest, withId),
      Effect.provideService(RequestId, id),
      Effect.annotateLogs("request_id", id)
    )
  })
