import { Effect } from "effect"
import { HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { Types } from "effect"
import { databaseUnavailableAnswer } from "@resale/webkit/DatabaseOutage.ts"

/**
 * Runs the server's own route for a GET that prefers HTML and is none of our pages (a sign-in link,
 * a logout, a receipt file, a document): the route answers as to any client, and a JSON error it
 * gives is drawn as an error page in the reader's words. Pages and forms call core directly.
 */
export type RouterEffect = Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, never>

export interface InnerAnswer {
  readonly status: number
  readonly text: string
  readonly json: unknown
  readonly response: HttpServerResponse.HttpServerResponse
}

const decoder = new TextDecoder()

/** The text of a response built in memory (JSON and text bodies); empty for streams and files. */
export const responseText = (response: HttpServerResponse.HttpServerResponse): string => {
  const body = response.body
  if (body._tag === "Uint8Array") return body.text ?? decoder.decode(body.body)
  if (body._tag === "Raw" && typeof body.body === "string") return body.body
  return ""
}

const parse = (text: string): unknown => {
  try {
    return text === "" ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

const answer = (response: HttpServerResponse.HttpServerResponse): InnerAnswer => {
  const text = responseText(response)
  return { status: response.status, text, json: parse(text), response }
}

const notFound = HttpServerResponse.jsonUnsafe({ detail: "Not Found", code: "not_found" }, { status: 404 })
const defect = HttpServerResponse.jsonUnsafe(
  { detail: "Internal Server Error", code: "internal_error" },
  { status: 500 }
)

/** Runs the router for `request`; a missing route is a 404, the database away a 503 and a defect a 500, as the server would answer. */
export const runInner = (router: RouterEffect, request: HttpServerRequest.HttpServerRequest) =>
  router.pipe(
    Effect.provideService(HttpServerRequest.HttpServerRequest, request),
    Effect.catchIf(
      (e: unknown) => HttpServerError.isHttpServerError(e) && e.reason._tag === "RouteNotFound",
      () => Effect.succeed(notFound)
    ),
    Effect.catchDefect(
      (cause) =>
        databaseUnavailableAnswer(cause) ?? Effect.as(Effect.logError("web page: inner call failed", cause), defect)
    ),
    Effect.map(answer)
  )
