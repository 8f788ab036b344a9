import { Context, Effect } from "effect"
import { Headers, HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { randomFillSync } from "node:crypto"
import { stampErrorBody } from "./ErrorBody.ts"

/**
 * The id of the request being answered: the caller's `X-Request-Id` when it is safe to echo and
 * log (1-128 of `A-Z a-z 0-9 . _ : -`), otherwise a new UUID. Echoed on every answer, put in every
 * error body (`request_id`) and in every log line of the request as the annotation `request_id`.
 */
export class RequestId extends Context.Reference<string>("http/server/RequestId", { defaultValue: () => "" }) {}

const SAFE = /^[A-Za-z0-9._:-]{1,128}$/

// Random bytes for new ids, drawn 4 KB at a time (as `randomUUID` draws its own), and the id's text.
const pool = Buffer.alloc(4096)
let used = pool.length
const HEX = Buffer.from("0123456789abcdef", "latin1")
const text = Buffer.alloc(36)

/**
 * A random UUID (version 4, RFC 9562), made as one string at once. Why not `randomUUID`: it joins
 * its text from 20 pieces, which every answer's header check and log line then copy into one; made
 * here it costs the most polled routes half as much (`bench/http`).
 */
export const newRequestId = (): string => {
  if (used === pool.length) {
    randomFillSync(pool)
    used = 0
  }
  let at = 0
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = 0x2d
    let byte = pool[used + i]!
    if (i === 6)
      byte = (byte & 0x0f) | 0x40 // version 4
    else if (i === 8) byte = (byte & 0x3f) | 0x80 // variant 10xx
    text[at++] = HEX[byte >> 4]!
    text[at++] = HEX[byte & 0x0f]!
  }
  used += 16
  return text.toString("latin1", 0, 36)
}

/** The caller's id if it is safe, else a fresh one. */
export const requestIdFor = (header: string | undefined): string =>
  header !== undefined && SAFE.test(header) ? header : newRequestId()

/**
 * Outermost middleware of the server: every answer, whichever route or failure made it (even the
 * pricing fast path, the direct surface and a 404), carries `x-request-id`; an error body carries it
 * as `request_id` too (`ErrorBody.ts`).
 */
export const withRequestId = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const id = requestIdFor(request.headers["x-request-id"])
    yield* HttpEffect.appendPreResponseHandler((_request, response) =>
      Effect.succeed(
        HttpServerResponse.setHeader(
          response.status >= 400 ? stampErrorBody(response, id) : response,
          "x-request-id",
          id
        )
      )
    )
    // Inner middleware (the request log) reads the safe id from the request, never the raw header.
    const withId = request.modify({ headers: Headers.set(request.headers, "x-request-id", id) })
    return yield* app.pipe(
      Effect.provideService(HttpServerRequest.HttpServerRequest, withId),
      Effect.provideService(RequestId, id),
      Effect.annotateLogs("request_id", id)
    )
  })
