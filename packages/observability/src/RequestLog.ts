/**
 * The request middleware of the server: one log line per request (`method`, `route`, `path`, `status`,
 * `duration_ms`, `client`, `user`, `request_id`) and the request metrics. Health probes and metric
 * scrapes are logged at Debug only, so a load balancer polling every second does not drown the log.
 */
import { Context, Effect, Exit, LogLevel, Option } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { recordRequest } from "./HttpMetrics.ts"
import { requestRoute, requestUser } from "./RequestFacts.ts"

const PROBES = new Set(["/livez", "/readyz", "/healthz", "/metrics"])

const pathOf = (url: string): string => {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

/**
 * A request answered before the router (a fast path) has no pattern: its path stands in, with numeric
 * segments as `:id` so ids never become series of their own. Not-found answers share one series.
 */
const routeOfUnmatched = (path: string, status: number): string =>
  status === 404 || status === 405 ? "unmatched" : path.replace(/\/\d+(?=\/|$)/g, "/:id")

const statusOf = (exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>): number =>
  Exit.isSuccess(exit) ? exit.value.status : HttpServerError.causeResponseStripped(exit.cause)[0].status

const requestIdOf = (
  request: HttpServerRequest.HttpServerRequest,
  exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>
): string | undefined =>
  (Exit.isSuccess(exit) ? exit.value.headers["x-request-id"] : undefined) ?? request.headers["x-request-id"]

export interface RequestLogOptions {
  /** Write the per-request line (`LOG_REQUESTS`, default true); metrics are recorded either way. */
  readonly log: boolean
}

/**
 * Wraps the whole HTTP app. The route pattern is the one `RouteNoting` noted (provide it where the
 * routes are added), else the router's `RouteContext` if it is still on the fiber.
 */
export const requestLog = (options: RequestLogOptions) =>
<E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiber((fiber) => {
    const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
    const started = performance.now()
    return Effect.onExit(app, (exit) =>
      Effect.withFiber((after) => {
        const durationMs = Math.round((performance.now() - started) * 10) / 10
        const matched = requestRoute(request) ?? Context.getOrUndefined(after.context, HttpRouter.RouteContext)?.route.path
        const path = pathOf(request.url)
        const status = statusOf(exit)
        const route = matched ?? routeOfUnmatched(path, status)
        const metrics = recordRequest(request.method, route, status, durationMs)
        if (!options.log) return metrics
        const level: LogLevel.LogLevel = PROBES.has(path) ? "Debug" : status >= 500 ? "Error" : "Info"
        const fields: Record<string, unknown> = {
          method: request.method,
          route,
          path,
          status,
          duration_ms: durationMs,
          client: Option.getOrNull(request.remoteAddress)
        }
        const user = requestUser(request)
        if (user !== undefined) fields["user"] = user
        const requestId = requestIdOf(request, exit)
        if (requestId !== undefined) fields["request_id"] = requestId
        return Effect.andThen(
          metrics,
          Effect.logWithLevel(level)(`${request.method} ${path} ${status}`).pipe(Effect.annotateLogs(fields))
        )
      }))
  })
