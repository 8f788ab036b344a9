import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { requestRecorder, type RequestLogOptions } from "@resale/observability/RequestLog.ts"
import { Context, Effect, Exit, Layer, Tracer } from "effect"
import { HttpServer, type HttpServerResponse } from "effect/http"
import { type IncomingMessage, Server, type ServerResponse } from "node:http"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { listenFailed } from "./ListenFailed.ts"
import { stampErrorBody } from "@resale/webkit/ErrorBody.ts"
import { requestIdFor } from "@resale/webkit/RequestId.ts"
import { withSecurityHeaders } from "./SecurityHeaders.ts"

/** What a front route answers after running an effect (a use case). */
export interface FrontAnswer {
  readonly response: HttpServerResponse.HttpServerResponse
  /** The route pattern for the log and metrics. */
  readonly route: string
  /** The user the request was authenticated as (the log line's `user`). */
  readonly user?: string | undefined
}

/**
 * A route answered in front of effect's request handling, given a request with no body:
 * - a response made once and reused (counted under the pattern the route was added with), or
 * - an effect, run in the request fibers' context in one fiber, giving the answer; when it gives
 *   `undefined` (or fails) nothing was sent and the request goes to effect's handler after all,
 *   which answers it as it would have (errors included): only read-only work may be done there;
 * - `undefined` to let the request go to effect's handler at once.
 */
export type FrontRoute = (
  method: string,
  url: string,
  headers: IncomingMessage["headers"]
) => HttpServerResponse.HttpServerResponse | Effect.Effect<FrontAnswer | undefined> | undefined

/**
 * The front door of the Node server. A request that a front route answers is written straight to
 * Node's response, without a request fiber, scope or middleware chain; everything else is passed
 * to effect's handler untouched. A front answer is what the server's own pipeline would give: the
 * same response (its route makes it with the contract's encoding), the security headers
 * (`withSecurityHeaders`), `x-request-id` (`requestIdFor`, and `request_id` in an error body), and the request log line and metrics
 * made by the same function as the request log middleware's (`recordRequestFacts`), in the request
 * fibers' context.
 * Why: a fiber per request costs more than all the rest of answering the most polled route.
 * Answers are written together at the end of the event loop's poll phase (`write`): fewer wake-ups
 * of the waiting peers, which cost more than the answers (`bench/http`).
 * `packages/http/test/front-door.test.ts` compares its answers, log lines and metrics with the pipeline's.
 */
export class FrontDoor extends Context.Service<
  FrontDoor,
  {
    /**
     * Adds a route; routes are asked in the order they were added. `pattern` is the route table's path
     * its reused responses are counted under (metrics labels never come from the request).
     */
    readonly add: (route: FrontRoute, pattern: string) => void
    /** Called by the server (`serveLean`): where to log, once request fibers' context is known. */
    readonly attach: (context: Context.Context<never>, options: RequestLogOptions) => void
    /** A Node server whose `request` events go through the front door first. */
    readonly server: () => Server
    /** How many requests the front door has answered (tests). */
    readonly answered: () => number
  }
>()("http/server/FrontDoor") {
  static readonly layer = Layer.effect(FrontDoor)(
    Effect.gen(function* () {
      const https = (yield* HttpConfig).publicUrl.startsWith("https://")
      const routes: Array<{ readonly answer: FrontRoute; readonly pattern: string }> = []
      let sink:
        | {
            readonly context: Context.Context<never>
            /** The request line and metrics, as the request log middleware makes them (`recordRequestFacts`). */
            readonly record: ReturnType<typeof requestRecorder>
            /** No tracing backend is installed (effect's `nativeTracer`): spans are made for no one. */
            readonly untraced: boolean
          }
        | undefined
      let answered = 0

      // The answer's security headers (names and values in turn, `x-request-id` last, its value set for
      // each answer: Node copies the headers out at once) and its body text; kept for reused responses.
      interface Ready {
        readonly headers: Array<string>
        readonly text: string
      }
      const prepared = new WeakMap<HttpServerResponse.HttpServerResponse, Ready>()
      const prepareNow = (response: HttpServerResponse.HttpServerResponse): Ready | undefined => {
        const secured = withSecurityHeaders(response, https)
        if (secured.body._tag !== "Uint8Array") return undefined
        const headers = Object.entries(secured.headers)
          .filter(([name]) => name !== "x-request-id")
          .flat()
        return { headers: [...headers, "x-request-id", ""], text: Buffer.from(secured.body.body).toString("latin1") }
      }
      const prepare = (response: HttpServerResponse.HttpServerResponse) => {
        let found = prepared.get(response)
        if (found === undefined) {
          found = prepareNow(response)
          if (found !== undefined) prepared.set(response, found)
        }
        return found
      }

      // Log lines that this process's loggers cannot take at once (a test's logger): one fiber per turn.
      let pending: Array<Effect.Effect<void>> = []
      const flush = () => {
        const batch = pending
        pending = []
        if (sink !== undefined) Effect.runForkWith(sink.context)(Effect.all(batch, { discard: true }))
      }

      /** An answer made, and what its request line needs. */
      interface Answer {
        readonly request: IncomingMessage
        readonly response: ServerResponse
        readonly ready: Ready
        readonly status: number
        readonly id: string
        readonly started: number
        readonly route: string | undefined
        readonly user: string | undefined
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
        const logged = gone ? 499 : status
        const later = sink!.record(
          request.method ?? "GET",
          request.url ?? "/",
          logged,
          durationMs,
          request.socket.remoteAddress ?? null,
          id,
          route,
          user
        )
        if (later !== undefined) {
          if (pending.length === 0) setImmediate(flush)
          pending.push(later)
        }
      }

      // Answers made in one turn of the event loop are written together after its poll phase has read
      // every request that was ready, in the order they were made. Why: a write to a connection whose
      // peer waits for it wakes that peer (a proxy, a client) on its core, which costs both sides more
      // than the answer itself; answers written one by one while the turn reads on wake it once per
      // answer, written together mostly once. The wait is the rest of the turn: none at low load.
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

      const answer = (server: Server, request: IncomingMessage, response: ServerResponse): boolean => {
        if (sink === undefined || routes.length === 0) return false
        const method = request.method ?? "GET"
        const headers = request.headers
        // Only bodiless requests: a body is effect's to read, bound and drain.
        if (headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined) return false
        const url = request.url ?? "/"
        let made: ReturnType<FrontRoute>
        let pattern = ""
        for (const route of routes)
          if ((made = route.answer(method, url, headers)) !== undefined) {
            pattern = route.pattern
            break
          }
        if (made === undefined) return false
        const started = performance.now()
        const id = requestIdFor(headers["x-request-id"] as string | undefined)
        if (!Effect.isEffect(made)) {
          // An error answer carries its request's id in the body, so it is never reused as made.
          const ready = made.status >= 400 ? prepareNow(stampErrorBody(made, id)) : prepare(made)
          if (ready === undefined) return false
          write({ request, response, ready, status: made.status, id, started, route: pattern, user: undefined })
          return true
        }
        // Without a tracing backend a front route's spans are seen by no one (a failure is handed on, so
        // no span reaches a logged error): they are not made. With one, they are exported as always.
        const traced = sink.untraced ? Effect.withTracerEnabled(made, false) : made
        Effect.runCallbackWith(sink.context)(Effect.annotateLogs(traced, "request_id", id), {
          onExit: (exit) => {
            if (response.destroyed || response.headersSent) return
            const given = Exit.isSuccess(exit) ? exit.value : undefined
            const ready =
              given === undefined
                ? undefined
                : prepareNow(given.response.status >= 400 ? stampErrorBody(given.response, id) : given.response)
            if (given !== undefined && ready !== undefined) {
              return write({
                request,
                response,
                ready,
                status: given.response.status,
                id,
                started,
                route: given.route,
                user: given.user
              })
            }
            // Not this route's to answer after all: the pipeline answers, under the same request id.
            headers["x-request-id"] = id
            ;(Server.prototype.emit as (this: Server, ...args: Array<unknown>) => boolean).call(
              server,
              "request",
              request,
              response
            )
          }
        })
        return true
      }

      class FrontDoorServer extends Server {
        override emit(event: string | symbol, ...args: Array<any>): boolean {
          if (event === "request" && answer(this, args[0], args[1])) return true
          return super.emit(event as string, ...args)
        }
      }

      return FrontDoor.of({
        add: (answer, pattern) => void routes.push({ answer, pattern }),
        attach: (context, options) =>
          void (sink = {
            context,
            record: requestRecorder(context, options),
            untraced: Context.get(context, Tracer.Tracer) === Tracer.nativeTracer
          }),
        server: () => new FrontDoorServer(),
        answered: () => answered
      })
    })
  )
}

/**
 * The Node HTTP server with the front door (given as `FrontDoor` too, for the routes to join it); an
 * address it cannot listen on stops the start with `ListenFailed`, which says where and why.
 */
export const frontDoorServer = (options: { readonly port: number; readonly host: string }) =>
  Layer.mergeAll(
    Layer.effect(HttpServer.HttpServer)(
      Effect.flatMap(Effect.service(FrontDoor), (door) =>
        NodeHttpServer.make(door.server, options).pipe(Effect.mapError((error) => listenFailed(error, options)))
      )
    ),
    NodeHttpServer.layerHttpServices
  ).pipe(Layer.provideMerge(FrontDoor.layer))
