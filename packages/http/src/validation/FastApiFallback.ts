import { Effect, type SchemaIssue } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { randomUUID } from "node:crypto"
import type { ValidationErrorItem } from "../api/Errors.ts"
import { issueRecords } from "@resale/wire/SchemaRecords.ts"
import { databaseUnavailableAnswer } from "@resale/webkit/DatabaseOutage.ts"
import { RequestId } from "@resale/webkit/RequestId.ts"

/** Method and path pattern (`/v2/tickets/:ticket_id`) of every route the server answers. */
export interface KnownRoute {
  readonly method: string
  readonly path: string
}

const compile = (routes: ReadonlyArray<KnownRoute>) =>
  routes.map((route) => ({
    method: route.method,
    regex: new RegExp(
      "^" + route.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_][A-Za-z0-9_]*/g, "[^/]+") + "$"
    )
  }))

const json = (body: unknown, status: number, headers?: Record<string, string>) =>
  HttpServerResponse.jsonUnsafe(body, { status, ...(headers ? { headers } : {}) })

const LOC: Record<string, string> = { Params: "path", Query: "query", Headers: "header", Payload: "body" }

/** Last-resort translation of a schema failure the request validator did not foresee (no input echoed). */
const issueDetail = (kind: string, issue: SchemaIssue.Issue): Array<ValidationErrorItem> =>
  issueRecords(
    issue,
    LOC[kind] ?? "body",
    () => null,
    (words) => words
  )

/**
 * Global router middleware giving unknown routes FastAPI's `{"detail":"Not Found"}`, a wrong
 * method 405, any remaining request-decoding defect or 415 a 422 record, the database being away a 503
 * (`server/DatabaseOutage.ts`), and any other defect a 500 with an id.
 */
export const fastApiFallback = (routes: ReadonlyArray<KnownRoute>) => {
  const compiled = compile(routes)
  return HttpRouter.middleware(
    (httpEffect) =>
      httpEffect.pipe(
        Effect.catchIf(
          (e: unknown) => HttpServerError.isHttpServerError(e) && e.reason._tag === "RouteNotFound",
          () =>
            Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
              const path = request.url.split("?")[0]!
              const allowed = compiled.filter((r) => r.regex.test(path)).map((r) => r.method)
              return allowed.length > 0
                ? json({ detail: "Method Not Allowed", code: "method_not_allowed" }, 405, {
                    allow: [...new Set(allowed)].join(", ")
                  })
                : json({ detail: "Not Found", code: "not_found" }, 404)
            })
        ),
        Effect.catchDefect((defect) =>
          HttpApiError.HttpApiSchemaError.is(defect) && defect.kind !== "Body" && defect.kind !== "ResponseHeaders"
            ? Effect.succeed(json({ detail: issueDetail(defect.kind, defect.cause.issue) }, 422))
            : (databaseUnavailableAnswer(defect) ??
              Effect.gen(function* () {
                // A bug, not a client mistake: the ids link the answer to the log line; the body says nothing more.
                const errorId = randomUUID()
                const requestId = yield* RequestId
                yield* Effect.logError("unexpected defect", { errorId, defect })
                return json(
                  { detail: "Internal Server Error", code: "internal_error", error_id: errorId, request_id: requestId },
                  500
                )
              }))
        ),
        Effect.map((response) =>
          response.status === 415
            ? json(
                {
                  detail: [
                    {
                      type: "model_attributes_type",
                      loc: ["body"],
                      msg: "Input should be a valid dictionary or object to extract fields from",
                      input: null
                    }
                  ]
                },
                422
              )
            : response
        )
      ),
    { global: true }
  )
}
