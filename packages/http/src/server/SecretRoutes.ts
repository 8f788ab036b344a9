/**
 * Routes whose path carries a secret: the bot webhook's (`/v2/bot/webhook/<secret>`). Their request
 * lines show the pattern (`RequestLogOptions.secretRoutes`), and so do their traces: effect's server
 * span records the raw path (`url.path`, `url.full`) and has no hook to change it, so for these paths
 * it is turned off (`HttpMiddleware.TracerDisabledWhen`) and `withSecretRouteSpan` makes the span
 * instead, with the pattern. Anything under the prefix counts, matched or not (403, 404, 413).
 */
import { Context, Effect, Exit } from "effect"
import { HttpMiddleware, HttpServerError, HttpServerRequest, type HttpServerResponse } from "effect/http"

export const SECRET_ROUTES: ReadonlyArray<string> = ["/v2/bot/webhook/:secret"]

const PREFIXES = SECRET_ROUTES.map((pattern) => [pattern.slice(0, pattern.indexOf(":")), pattern] as const)

/** The pattern of a secret-bearing path, or undefined (a prefix check per route: no regex). */
export const secretRouteOf = (url: string): string | undefined => {
  for (const [prefix, pattern] of PREFIXES) if (url.startsWith(prefix)) return pattern
  return undefined
}

/** For `HttpMiddleware.TracerDisabledWhen`: effect's own server span is not made for these paths. */
export const isSecretRoute = (request: HttpServerRequest.HttpServerRequest): boolean =>
  secretRouteOf(request.url) !== undefined

const statusOf = (exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>): number =>
  Exit.isSuccess(exit) ? exit.value.status : HttpServerError.causeResponseStripped(exit.cause)[0].status

/**
 * The server span of a secret-bearing request, as effect's would be (kind, method, status) but with
 * the route pattern for the path; other requests pass untouched.
 */
export const withSecretRouteSpan = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiber((fiber) => {
    const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
    const pattern = secretRouteOf(request.url)
    if (pattern === undefined) return app
    return app.pipe(
      Effect.onExit((exit) => Effect.annotateCurrentSpan("http.response.status_code", statusOf(exit))),
      Effect.withSpan(request.method, {
        kind: "server",
        attributes: { "http.request.method": request.method, "http.route": pattern, "url.path": pattern }
      })
    )
  })

/** The serving effect with effect's server span off for secret-bearing paths (this module makes theirs). */
export const withoutSecretPathTracing = <A, E, R>(serving: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(serving, HttpMiddleware.TracerDisabledWhen, isSecretRoute)
