import { Effect } from "effect"
import { HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { Types } from "effect"
import { databaseUnavailableAnswer } from "@resale/webkit/DatabaseOutage.ts"

/**
 * The answer of the route a browser's GET goes on to when it is none of our pages (a sign-in link, a
 * logout, a receipt file, a document): the middleware's next step, run once, as for any client; the
 * gateway draws a JSON error it gives as an error page in the reader's words. Nothing is routed
 * again and no page reads another route's data: pages and forms call core directly.
 */
export type RouterEffect = Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, never>

export interface RouteAnswer {
  readonly status: number
  readonly text: string
  readonly response: HttpServerResponse.HttpServerResponse
}

const decoder = new TextDecoder()

/** The text of a response built in memory (JSON and text bodies); empty for streams and files. */
const responseText = (response: HttpServerResponse.HttpServerResponse): string => {
  const body = response.body
  if (body._tag === "Uint8Array") return body.text ?? decoder.decode(body.body)
  if (body._tag === "Raw" && typeof body.body === "string") return body.body
  return ""
}

const answer = (response: HttpServerResponse.HttpServerResponse): RouteAnswer => ({
  status: response.status,
  text: responseText(response),
  response
})

const notFound = HttpServerResponse.jsonUnsafe({ detail: "Not Found", code: "not_found" }, { status: 404 })
const defect = HttpServerResponse.jsonUnsafe(
  { detail: "Internal Server Error", code: "internal_error" },
  { status: 500 }
)

/** Runs the next step for `request`; a missing route is a 404, the database away a 503 and a defect a 500, as the server would answer. */
export const routeAnswer = (next: RouterEffect, request: HttpServerRequest.HttpServerRequest) =>
  next.pipe(
    Effect.provideService(HttpServerRequest.HttpServerRequest, request),
    Effect.catchIf(
      (e: unknown) => HttpServerError.isHttpServerError(e) && e.reason._tag === "RouteNotFound",
      () => Effect.succeed(notFound)
    ),
    Effect.catchDefect(
      (cause) =>
        databaseUnavailableAnswer(cause) ?? Effect.as(Effect.logError("web page: the route failed", cause), defect)
    ),
    Effect.map(answer)
  )
