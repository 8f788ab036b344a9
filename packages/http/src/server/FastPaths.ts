import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type { Prices } from "@resale/core"
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { requestRecorder, type RequestLogOptions } from "@resale/observability/RequestLog.ts"
import { Context, Effect, Exit, Layer, Option, Schema, Scope, Tracer } from "effect"
import { HttpServer, HttpServerResponse } from "effect/http"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import * as Dto from "@resale/wire/Dtos.ts"
import { ProgrammaticApi } from "../api/ProgrammaticApi.ts"
import { PricingApi } from "../api/PublicApi.ts"
import { balanceAnswer } from "../handlers/ProgrammaticFront.ts"
import { pricingOut } from "../handlers/Wire.ts"
import { PricingCache } from "@resale/webkit/PricingCache.ts"
import { stampErrorBody } from "@resale/webkit/ErrorBody.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { listenFailed } from "./ListenFailed.ts"
import { requestIdFor } from "@resale/webkit/RequestId.ts"
import { withSecurityHeaders } from "./SecurityHeaders.ts"

/**
 * The fast paths: the two most polled answers given by a plain `node:http` request listener without a
 * request fiber, scope or middleware chain; every other request (and every refusal) goes on to effect's
 * own Node handler (`NodeHttpServer.makeHandler`). Public APIs only: Node's `createServer` and
 * `request` event, effect's `NodeHttpServer.make` (listening, closing), `makeHandler` and
 * `HttpServer.make`. An answer here is what the pipeline gives (`fast-path-parity.test.ts` compares
 * them field by field): the contract's encoding, the security headers (`withSecurityHeaders`),
 * `x-request-id` (`requestIdFor`), the request line and metrics of the request log middleware
 * (`requestRecorder`) in the request fibers' context.
 * - `GET /v2/api/pricing` while `PricingCache`'s list is fresh (the first request after it expired
 *   reads it through the HttpApi route);
 * - `GET /v2/api/balance` with an `X-API-Key`: authenticated and read in one fiber and one statement
 *   (`Accounts.balanceByApiKey`); a missing or unknown key, a query, anything else is the HttpApi
 *   route's (its 401s, 422s); nothing is cached about keys.
 * Answers made in one event-loop turn are written together at its end (`write`): fewer wake-ups of
 * the waiting peers, which cost more than the answers (`bench/http`, docs/performance.md).
 */

/** What a fast route answers after running an effect (a read-only use case). */
export interface FastAnswer {
  readonly response: HttpServerResponse.HttpServerResponse
  /** The route pattern for the log and metrics (never taken from the request). */
  readonly route: string
  /** The user the request was authenticated as (the log line's `user`). */
  readonly user?: string | undefined
}

/** A response to reuse, an effect giving the answer (`undefined`: not this route's after all), or `undefined`. */
type FastRoute = (
  method: string,
  url: string,
  headers: IncomingMessage["headers"]
) => HttpServerResponse.HttpServerResponse | Effect.Effect<FastAnswer | undefined> | undefined

type NodeHandler = (request: IncomingMessage, response: ServerResponse) => void

interface Ready {
  /** Header names and values in turn, `x-request-id` last (its value set per answer). */
  readonly headers: Array<string>
  readonly text: string
}

interface Answer {
  readonly request: IncomingMessage
  readonly response: ServerResponse
  readonly ready: Ready
  readonly status: number
  readonly id: string
  readonly started: number
  readonly route: string
  readonly user: string | undefined
}

export class FastPaths extends Context.Service<
  FastPaths,
  {
    /** Adds a route (asked in the order added); `pattern` labels its reused responses. */
    readonly add: (route: FastRoute, pattern: string) => void
    /** Called by `serveLean` with the request fibers' context: where fast answers are logged and run. */
    readonly attach: (context: Context.Context<never>, options: RequestLogOptions) => void
    /** Answers `request` here, or hands it to `next` (effect's handler). */
    readonly handle: (request: IncomingMessage, response: ServerResponse, next: NodeHandler) => void
    /** How many requests were answered here (tests). */
    readonly answered: () => number
  }
>()("http/server/FastPaths") {
  static readonly layer = Layer.effect(FastPaths)(
    Effect.gen(function* () {
      const https = (yield* HttpConfig).publicUrl.startsWith("https://")
      const routes: Array<{ readonly answer: FastRoute; readonly pattern: string }> = []
      let sink:
        | { readonly context: Context.Context<never>; readonly record: ReturnType<typeof requestRecorder> }
        | undefined
      // No tracing backend (effect's `nativeTracer`): a fast route's spans would be seen by no one.
      let untraced = false
      let answered = 0

      const prepareNow = (response: HttpServerResponse.HttpServerResponse): Ready | undefined => {
        const secured = withSecurityHeaders(response, https)
        if (secured.body._tag !== "Uint8Array") return undefined
        const headers = Object.entries(secured.headers).filter(([name]) => name !== "x-request-id")
        return {
          headers: [...headers.flat(), "x-request-id", ""],
          text: Buffer.from(secured.body.body).toString("latin1")
        }
      }
      const prepared = new WeakMap<HttpServerResponse.HttpServerResponse, Ready | undefined>()
      const prepare = (response: HttpServerResponse.HttpServerResponse) => {
        if (!prepared.has(response)) prepared.set(response, prepareNow(response))
        return prepared.get(response)
      }

      // Log lines this process's loggers cannot take at once (a test's logger): one fiber per turn.
      let pending: Array<Effect.Effect<void>> = []
      const flush = () => {
        const batch = pending
        pending = []
        if (sink !== undefined) Effect.runForkWith(sink.context)(Effect.all(batch, { discard: true }))
      }
      const writeNow = ({ id, ready, request, response, route, started, status, user }: Answer) => {
        // A client gone before its answer was written gets none; its line says 499, as the pipeline's does.
        const gone = response.destroyed
        if (!gone) {
          ready.headers[ready.headers.length - 1] = id
          response.writeHead(status, ready.headers)
          response.end(ready.text, "latin1")
          answered++
        }
        const durationMs = Math.round((performance.now() - started) * 10) / 10
        const client = request.socket.remoteAddress ?? null
        const method = request.method ?? "GET"
        const later = sink!.record(method, request.url ?? "/", gone ? 499 : status, durationMs, client, id, route, user)
        if (later !== undefined) {
          if (pending.length === 0) setImmediate(flush)
          pending.push(later)
        }
      }
      // Written together once the turn's poll phase has read every ready request, in order.
      let queued: Array<Answer> = []
      const writeQueued = () => {
        const batch = queued
        queued = []
        for (const answer of batch) writeNow(answer)
      }
      const write = (answer: Answer) => {
        if (queued.length === 0) setImmediate(writeQueued)
        queued.push(answer)
      }

      const handle = (request: IncomingMessage, response: ServerResponse, next: NodeHandler): void => {
        const headers = request.headers
        // Only bodiless requests: a body is effect's to read, bound and drain.
        const bodiless = headers["content-length"] === undefined && headers["transfer-encoding"] === undefined
        if (sink === undefined || !bodiless) return next(request, response)
        const method = request.method ?? "GET"
        const url = request.url ?? "/"
        let made: ReturnType<FastRoute>
        let pattern = ""
        for (const route of routes) {
          made = route.answer(method, url, headers)
          if (made !== undefined) {
            pattern = route.pattern
            break
          }
        }
        if (made === undefined) return next(request, response)
        const started = performance.now()
        const id = requestIdFor(headers["x-request-id"] as string | undefined)
        const answer = (given: FastAnswer) => {
          const { response: made, route, user } = given
          const ready = made.status >= 400 ? prepareNow(stampErrorBody(made, id)) : prepare(made)
          if (ready === undefined) return false
          write({ request, response, ready, status: made.status, id, started, route, user })
          return true
        }
        if (!Effect.isEffect(made)) {
          if (!answer({ response: made, route: pattern })) next(request, response)
          return
        }
        const traced = untraced ? Effect.withTracerEnabled(made, false) : made
        Effect.runCallbackWith(sink.context)(Effect.annotateLogs(traced, "request_id", id), {
          onExit: (exit) => {
            if (response.destroyed || response.headersSent) return
            const given = Exit.isSuccess(exit) ? exit.value : undefined
            if (given !== undefined && answer(given)) return
            // Not this route's to answer: the pipeline answers, under the same request id.
            headers["x-request-id"] = id
            next(request, response)
          }
        })
      }

      return FastPaths.of({
        add: (answer, pattern) => void routes.push({ answer, pattern }),
        attach: (context, options) => {
          sink = { context, record: requestRecorder(context, options) }
          untraced = Context.get(context, Tracer.Tracer) === Tracer.nativeTracer
        },
        handle,
        answered: () => answered
      })
    })
  )
}

/**
 * A `node:http` server whose requests go through the fast paths first, then to effect's handler; given
 * as `HttpServer` with the platform's services and `FastPaths`. An address it cannot listen on stops
 * the start with `ListenFailed`. Stopping: no new connection, requests in flight finish (up to 20 s, as
 * effect's own Node server), then the handler goes.
 */
export const fastPathServer = (options: { readonly port: number; readonly host: string }) =>
  Layer.mergeAll(
    Layer.effect(HttpServer.HttpServer)(
      Effect.gen(function* () {
        const fast = yield* FastPaths
        const server = createServer()
        const node = yield* NodeHttpServer.make(() => server, options).pipe(
          Effect.mapError((error) => listenFailed(error, options))
        )
        const closed = Effect.callback<void>((resume) => {
          if (!server.listening) return resume(Effect.void)
          server.close(() => resume(Effect.void))
        }).pipe(Effect.timeoutOrElse({ duration: "20 seconds", orElse: () => Effect.void }))
        return HttpServer.make({
          address: node.address,
          serve: (app, middleware) =>
            Effect.gen(function* () {
              const scope = yield* Effect.scope
              const handler = yield* NodeHttpServer.makeHandler(app, {
                scope: Scope.forkUnsafe(scope, "parallel"),
                middleware: middleware as never
              })
              const onRequest = (request: IncomingMessage, response: ServerResponse) =>
                fast.handle(request, response, handler)
              server.on("request", onRequest)
              yield* Scope.addFinalizer(
                scope,
                Effect.ensuring(
                  closed,
                  Effect.sync(() => server.off("request", onRequest))
                )
              )
            }) as Effect.Effect<void, never, Scope.Scope>
        })
      })
    ),
    NodeHttpServer.layerHttpServices
  ).pipe(Layer.provideMerge(FastPaths.layer))

/** `url` is `path`, with or without a query. */
const isPath = (url: string, path: string): boolean =>
  url.startsWith(path) && (url.length === path.length || url[path.length] === "?")

const PRICING_PATH: string = PricingApi.endpoints.pricing.path
const BALANCE_PATH: string = ProgrammaticApi.endpoints.balance.path

/** The fast routes, added to the server's `FastPaths` when it has them (`httpApp` provides this). */
export const FastPathRoutes: Layer.Layer<never, never, Accounts | HttpConfig | PricingCache> = Layer.effectDiscard(
  Effect.gen(function* () {
    const fast = yield* Effect.serviceOption(FastPaths)
    if (Option.isNone(fast)) return
    const cache = yield* PricingCache
    const accounts = yield* Accounts
    const { sandbox } = yield* HttpConfig
    const encodePricing = Schema.encodeSync(Dto.Pricing)
    const encodeBalance = Schema.encodeSync(Dto.Balance)
    // The price list's answer, encoded once per list with the contract's schema.
    let encoded: { readonly prices: Prices; readonly response: HttpServerResponse.HttpServerResponse } | undefined
    fast.value.add((method, url) => {
      if (method !== "GET" || !isPath(url, PRICING_PATH)) return undefined
      const prices = cache.current()
      if (prices === undefined) return undefined
      if (encoded?.prices !== prices) {
        encoded = { prices, response: HttpServerResponse.jsonUnsafe(encodePricing(pricingOut(prices, sandbox))) }
      }
      return encoded.response
    }, PRICING_PATH)
    fast.value.add((method, url, headers) => {
      const key = headers["x-api-key"]
      if (method !== "GET" || url !== BALANCE_PATH || typeof key !== "string") return undefined
      return accounts.balanceByApiKey(key).pipe(
        Effect.map(({ balance, userId }) => ({
          response: HttpServerResponse.jsonUnsafe(encodeBalance(balanceAnswer(balance, sandbox))),
          route: BALANCE_PATH,
          user: String(userId)
        })),
        Effect.catchCause(() => Effect.succeed(undefined))
      )
    }, BALANCE_PATH)
  })
)
