import { NodeHttpServer } from "@effect/platform-node"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { DatabasePing, HttpServices, httpApp } from "@resale/http/server/HttpApp.ts"
import { serveLean } from "@resale/http/server/LeanServe.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { Context, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { createServer } from "node:http"
import { request } from "undici"

/** The resale HTTP server of `packages/http`, in this process, on a random loopback port. */
export class ResaleServer extends Context.Service<ResaleServer, { readonly url: string }>()("test/cli/ResaleServer") {}

/**
 * The whole web app in sandbox mode, as `npm start` composes it, over whatever storage ports the
 * layer below provides (the test file's PostgreSQL database, shared with the CLI child processes).
 */
export const ResaleServerLayer = Layer.effect(ResaleServer)(
  Effect.gen(function* () {
    const server = yield* HttpServer.HttpServer
    const address = server.address
    if (address._tag === "UnixPathAddress") return yield* Effect.die("not a TCP server")
    return ResaleServer.of({ url: `http://127.0.0.1:${address.port}` })
  })
).pipe(
  Layer.provide(
    serveLean(
      httpApp<never, never>().pipe(
        Layer.provide(HttpServices),
        Layer.provide([GiftCatalog.layerSandbox, FragmentSandbox.layer(), DatabasePing.layerAlwaysUp])
      ),
      { logRequests: false }
    ).pipe(Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })))
  ),
  // Request handlers read the settings too, not only the layers that build them.
  Layer.provide(HttpConfig.layerTest({ sandbox: true }))
)

export interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: any
}

/** One real HTTP request to the server (JSON answers parsed). */
export const http = (
  path: string,
  options: {
    readonly method?: "GET" | "POST"
    readonly headers?: Record<string, string>
    readonly body?: FormData
  } = {}
) =>
  Effect.gen(function* () {
    const { url } = yield* ResaleServer
    return yield* Effect.promise(async (): Promise<Answer> => {
      const headers: Record<string, string> = { accept: "application/json", ...options.headers }
      let body: Uint8Array | undefined
      if (options.body !== undefined) {
        const encoded = new Response(options.body)
        headers["content-type"] = encoded.headers.get("content-type") ?? ""
        body = new Uint8Array(await encoded.arrayBuffer())
      }
      const response = await request(`${url}${path}`, {
        method: options.method ?? (body === undefined ? "GET" : "POST"),
        headers,
        ...(body === undefined ? {} : { body })
      })
      const text = await response.body.text()
      let parsed: unknown = text
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = text
      }
      return { status: response.statusCode, headers: response.headers as Answer["headers"], body: parsed }
    })
  })

/** The `name=value` part of each Set-Cookie header, ready for a Cookie header. */
export const cookiesOf = (answer: Answer): string => {
  const raw = answer.headers["set-cookie"]
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]
  return list.map((c) => c.split(";")[0]).join("; ")
}
