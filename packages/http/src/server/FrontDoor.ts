import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { recordRequestFacts, type RequestLogOptions, unroutedFacts } from "@resale/observability/RequestLog.ts"
import { Context, Effect, Layer } from "effect"
import type { HttpServerResponse } from "effect/http"
import { type IncomingMessage, Server, type ServerResponse } from "node:http"
import { HttpConfig } from "./HttpConfig.ts"
import { requestIdFor } from "./RequestId.ts"
import { withSecurityHeaders } from "./SecurityHeaders.ts"

/**
 * A route answered in front of effect's request handling: given a request with no body, the answer
 * (made once and reused), or `undefined` to let the request go to effect's handler as usual.
 */
export type FrontRoute = (method: string, url: string) => HttpServerResponse.HttpServerResponse | undefined

/**
 * The front door of the Node server. A request that a front route answers is written straight to
 * Node's response, without a request fiber, scope or middleware chain; everything else is passed
 * to effect's handler untouched. A front answer is what the server's own pipeline would give: the
 * same response (its route makes it with the contract's encoding), the security headers
 * (`withSecurityHeaders`), `x-request-id` (`requestIdFor`), and the request log line and metrics
 * made by the same function as the request log middleware's (`recordRequestFacts`), in the request
 * fibers' context.
 * Why: a fiber per request costs more than all the rest of answering the most polled route.
 * `FrontDoor.test.ts` compares its answers, log lines and metrics with the pipeline's.
 */
export class FrontDoor extends Context.Service<FrontDoor, {
  /** Adds a route; routes are asked in the order they were added. */
  readonly add: (route: FrontRoute) => void
  /** Called by the server (`serveLean`): where to log, once request fibers' context is known. */
  readonly attach: (context: Context.Context<never>, options: RequestLogOptions) => void
  /** A Node server whose `request` events go through the front door first. */
  readonly server: () => Server
  /** How many requests the front door has answered (tests). */
  readonly answered: () => number
}>()("http/server/FrontDoor") {
  static readonly layer = Layer.effect(FrontDoor)(Effect.gen(function*() {
    const https = (yield* HttpConfig).publicUrl.startsWith("https://")
    const routes: Array<FrontRoute> = []
    let sink: { readonly context: Context.Context<never>; readonly options: RequestLogOptions } | undefined
    let answered = 0

    // The answer with its security headers and body text, made once per response a route gives.
    const prepared = new WeakMap<HttpServerResponse.HttpServerResponse, { headers: Record<string, string>; text: string }>()
    const prepare = (response: HttpServerResponse.HttpServerResponse) => {
      let found = prepared.get(response)
      if (found === undefined) {
        const secured = withSecurityHeaders(response, https)
        const body = secured.body._tag === "Uint8Array" ? Buffer.from(secured.body.body).toString("latin1") : undefined
        if (body === undefined) return undefined
        found = { headers: { ...secured.headers } as Record<string, string>, text: body }
        prepared.set(response, found)
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

    const answer = (request: IncomingMessage, response: ServerResponse): boolean => {
      if (sink === undefined || routes.length === 0) return false
      const method = request.method ?? "GET"
      const headers = request.headers
      // Only bodiless requests: a body is effect's to read, bound and drain.
      if (headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined) return false
      const url = request.url ?? "/"
      let made: HttpServerResponse.HttpServerResponse | undefined
      for (const route of routes) if ((made = route(method, url)) !== undefined) break
      if (made === undefined) return false
      const ready = prepare(made)
      if (ready === undefined) return false
      const started = performance.now()
      const id = requestIdFor(headers["x-request-id"] as string | undefined)
      response.writeHead(made.status, { ...ready.headers, "x-request-id": id })
      response.end(ready.text, "latin1")
      answered++
      const durationMs = Math.round((performance.now() - started) * 10) / 10
      const facts = unroutedFacts(method, url, made.status, durationMs, request.socket.remoteAddress ?? null, id)
      const later = recordRequestFacts(facts, sink.options, sink.context)
      if (later !== undefined) {
        if (pending.length === 0) setImmediate(flush)
        pending.push(later)
      }
      return true
    }

    class FrontDoorServer extends Server {
      override emit(event: string | symbol, ...args: Array<any>): boolean {
        if (event === "request" && answer(args[0], args[1])) return true
        return super.emit(event as string, ...args)
      }
    }

    return FrontDoor.of({
      add: (route) => void routes.push(route),
      attach: (context, options) => void (sink = { context, options }),
      server: () => new FrontDoorServer(),
      answered: () => answered
    })
  }))
}

/** The Node HTTP server with the front door (given as `FrontDoor` too, for the routes to join it). */
export const frontDoorServer = (options: { readonly port: number; readonly host: string }) =>
  Layer.unwrap(Effect.map(Effect.service(FrontDoor), (door) => NodeHttpServer.layer(door.server, options))).pipe(
    Layer.provideMerge(FrontDoor.layer)
  )
