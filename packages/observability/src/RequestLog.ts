/**
 * The request middleware of the server: one log line per request (`method`, `route`, `path`, `status`,
 * `duration_ms`, `client`, `user`, `request_id`) and the request metrics. Health probes and metric
 * scrapes are logged at Debug only, so a load balancer polling every second does not drown the log.
 */
import { Context, Effect, Exit, Option } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { recordRequestIn, requestSeries, type RequestSeries, UNMATCHED_ROUTE } from "./HttpMetrics.ts"
import { type LineShape, logShaped, shapeLine } from "./LineShape.ts"
import { logInContext } from "./Logging.ts"
import { requestRoute, requestUser } from "./RequestFacts.ts"

const PROBES = new Set(["/livez", "/readyz", "/healthz", "/metrics"])

/** Prefixes of routes whose parameter is a secret, each with the pattern logged in its place. */
type SecretPrefixes = ReadonlyArray<readonly [prefix: string, pattern: string]>

const prefixesOf = (options: RequestLogOptions): SecretPrefixes =>
  (options.secretRoutes ?? []).map((pattern) => [pattern.slice(0, pattern.indexOf(":")), pattern] as const)

/** The path a line shows: a secret-bearing one as its pattern, matched or not (a prefix check, no regex). */
const pathOf = (url: string, secret: SecretPrefixes = []): string => {
  for (const [prefix, pattern] of secret) if (url.startsWith(prefix)) return pattern
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

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
  /**
   * Route patterns whose parameter is a secret (`/v2/bot/webhook/:secret`, the part before `:` a
   * fixed prefix): any path under one is logged as the pattern, whatever the answer (403, 404, 413).
   */
  readonly secretRoutes?: ReadonlyArray<string>
}

/** What the request log says of one answered request. */
export interface RequestFactsOf {
  readonly method: string
  /** The route pattern, or `unmatched` when no route matched (a caller's path never becomes a label). */
  readonly route: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
  readonly client: string | null
  readonly user: string | undefined
  readonly requestId: string | undefined
}

/**
 * The request's metrics and (unless turned off) its log line, in `context` (the request fiber's):
 * the one place both are made, for the middleware below and for answers given in front of effect's
 * request handling (`FastPaths`). Done at once where the process's own loggers are installed
 * (`logInContext`); otherwise the log line is the returned effect, to run in that context.
 */
export const recordRequestFacts = (
  facts: RequestFactsOf,
  options: RequestLogOptions,
  context: Context.Context<never>
): Effect.Effect<void> | undefined => {
  recordRequestIn(context, facts.method, facts.route, facts.status, facts.durationMs)
  return options.log ? logRequest(facts, context) : undefined
}

const levelOf = (path: string, status: number): "Debug" | "Info" | "Error" =>
  PROBES.has(path) ? "Debug" : status >= 500 ? "Error" : "Info"

/** The request line's fields, in their order. */
const fieldsOf = (facts: RequestFactsOf): Record<string, unknown> => {
  // `request_id` first: where the request id middleware annotated it already, it is there anyway.
  const fields: Record<string, unknown> = facts.requestId === undefined ? {} : { request_id: facts.requestId }
  fields["method"] = facts.method
  fields["route"] = facts.route
  fields["path"] = facts.path
  fields["status"] = facts.status
  fields["duration_ms"] = facts.durationMs
  fields["client"] = facts.client
  if (facts.user !== undefined) fields["user"] = facts.user
  return fields
}

const logRequest = (facts: RequestFactsOf, context: Context.Context<never>): Effect.Effect<void> | undefined => {
  const level = levelOf(facts.path, facts.status)
  const fields = fieldsOf(facts)
  const message = `${facts.method} ${facts.path} ${facts.status}`
  if (logInContext(context, level, message, fields)) return undefined
  return Effect.logWithLevel(level)(message).pipe(Effect.annotateLogs(fields))
}

const VARYING = ["request_id", "path", "duration_ms", "client", "user"]
const LEVELS: ReadonlyArray<string> = ["Debug", "Info", "Error"]

/** One series' metrics and its line shapes (by level, and with or without a user). */
interface Recorded {
  readonly series: RequestSeries
  /** `null`: below the minimum level; `false`: no shape applies; `undefined`: not made yet. */
  readonly shapes: Array<LineShape | null | undefined | false>
}

/**
 * `recordRequestFacts` for requests answered in one context (the fast paths'), made cheap by what
 * that fixed context allows: each series' metrics are found once and its line written from a shape
 * made once (`LineShape.ts`), with no facts, fields or record object per request. The metrics and
 * lines are those of `recordRequestFacts` (`fast-paths.test.ts` compares them with the pipeline's);
 * where no shape applies (a test's logger, pretty lines) the line is made as there.
 */
export const requestRecorder = (context: Context.Context<never>, options: RequestLogOptions) => {
  const recorded = new Map<string, Recorded>()
  const secret = prefixesOf(options)
  // The last series, found again without a key: under load most requests are of the same one.
  let last: { method: string; status: number; pattern: string; found: Recorded } | undefined
  // The last request's url, status and method, and what was made of them (same reason).
  let seen = { url: "", status: 0, method: "", path: "", message: "" }
  return (
    method: string,
    url: string,
    status: number,
    durationMs: number,
    client: string | null,
    requestId: string,
    route: string | undefined,
    user: string | undefined
  ): Effect.Effect<void> | undefined => {
    if (seen.url !== url || seen.status !== status || seen.method !== method) {
      const path = pathOf(url, secret)
      seen = { url, status, method, path, message: `${method} ${path} ${status}` }
    }
    const { path, message } = seen
    const pattern = route ?? UNMATCHED_ROUTE
    let found: Recorded | undefined
    if (last !== undefined && last.status === status && last.method === method && last.pattern === pattern)
      found = last.found
    else {
      const key = `${method} ${status} ${pattern}`
      found = recorded.get(key)
      if (found === undefined)
        recorded.set(key, (found = { series: requestSeries(method, pattern, status), shapes: [] }))
      last = { method, status, pattern, found }
    }
    found.series.record(context, durationMs)
    if (!options.log) return undefined
    const level = levelOf(path, status)
    const at = LEVELS.indexOf(level) * 2 + (user === undefined ? 0 : 1)
    for (let attempt = 0; attempt < 2; attempt++) {
      let shape = found.shapes[at]
      if (shape === undefined) {
        const fields = fieldsOf({ method, route: pattern, path, status, durationMs, client, user, requestId })
        const made = shapeLine(context, level, fields, VARYING)
        found.shapes[at] = shape = made === undefined ? false : made
      }
      if (shape === null) return undefined
      if (shape === false) break
      if (logShaped(shape, message, requestId, path, durationMs, client, user)) return undefined
      found.shapes[at] = undefined // a secret was registered since: made again
    }
    return logRequest({ method, route: pattern, path, status, durationMs, client, user, requestId }, context)
  }
}

/** Facts of a request answered without the router: its route is `route` when the answer names it, else `unmatched`. */
export const unroutedFacts = (
  method: string,
  url: string,
  status: number,
  durationMs: number,
  client: string | null,
  requestId: string,
  route?: string,
  user?: string,
  secretRoutes: ReadonlyArray<string> = []
): RequestFactsOf => {
  const path = pathOf(url, prefixesOf({ log: true, secretRoutes }))
  return { method, route: route ?? UNMATCHED_ROUTE, path, status, durationMs, client, user, requestId }
}

/**
 * Wraps the whole HTTP app. The route pattern is the one `RouteNoting` noted (provide it where the
 * routes are added), else the router's `RouteContext` if it is still on the fiber.
 */
export const requestLog =
  (options: RequestLogOptions) =>
  <E, R>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> => {
    const secret = prefixesOf(options)
    return Effect.withFiber((fiber) => {
      const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
      const started = performance.now()
      return Effect.onExit(app, (exit) =>
        Effect.withFiber((after) => {
          const durationMs = Math.round((performance.now() - started) * 10) / 10
          const matched =
            requestRoute(request) ?? Context.getOrUndefined(after.context, HttpRouter.RouteContext)?.route.path
          const path = pathOf(request.url, secret)
          const status = statusOf(exit)
          return (
            recordRequestFacts(
              {
                method: request.method,
                route: matched ?? UNMATCHED_ROUTE,
                path,
                status,
                durationMs,
                client: Option.getOrNull(request.remoteAddress),
                user: requestUser(request),
                requestId: requestIdOf(request, exit)
              },
              options,
              after.context as Context.Context<never>
            ) ?? Effect.void
          )
        })
      )
    })
  }
