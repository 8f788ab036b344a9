import { ByteSize, Context, Effect } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { TopupSettings } from "@resale/core/topups/TopupSettings.ts"
import { receiptLimits } from "@resale/webkit/ReceiptLimits.ts"
import { Api } from "../api/Api.ts"
import type { DirectCode } from "../direct/DirectErrors.ts"

/**
 * One server-wide bound on request bodies, decided before any route, validation or authentication
 * runs: a declared `Content-Length` above the route's limit is answered 413 at once, without reading
 * a byte (the platform then closes the connection instead of draining it); a body without one
 * (chunked) is cut when it passes the limit wherever it is read (`MaxBodySize`), also a 413.
 */

/** JSON and form routes: far above any real request, far below anything that costs memory. */
export const JSON_BODY_LIMIT = 64 * 1024
/** Routes taking a file: the contract's multipart endpoints (the receipt upload); every other request gets `JSON_BODY_LIMIT`. */
export const UPLOAD_ROUTES: ReadonlyArray<{ readonly method: string; readonly path: string }> = Object.values(
  Api.groups
)
  .flatMap((group) => Object.values(group.endpoints))
  .filter((endpoint) => [...endpoint.payload.values()].some((entry) => entry.encoding._tag === "Multipart"))
  .map((endpoint) => ({ method: endpoint.method, path: endpoint.path }))

const uploads = UPLOAD_ROUTES.map((route) => ({
  method: route.method,
  pattern: new RegExp(`^${route.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+/g, "[^/]+")}$`)
}))

const isUpload = (method: string, url: string): boolean => {
  const path = url.split("?")[0]!
  return uploads.some((u) => u.method === method && u.pattern.test(path))
}

/** The 413 in the caller's dialect: `/v2` errors or the direct surface's flat `{ok: false, ...}`. */
export const payloadTooLarge = (url: string, limit: number): HttpServerResponse.HttpServerResponse => {
  const message = `The request body is larger than ${limit} bytes, the most this route accepts`
  return HttpServerResponse.jsonUnsafe(
    url.startsWith("/v2")
      ? { detail: message, code: "payload_too_large" }
      : { ok: false, code: "PAYLOAD_TOO_LARGE" satisfies DirectCode, message },
    { status: 413, headers: { connection: "close" } }
  )
}

const isBodyTooLarge = (error: unknown): boolean =>
  HttpServerError.isHttpServerError(error) &&
  error.reason._tag === "RequestParseError" &&
  error.reason.reason === "BodyTooLarge"

/**
 * Declared lengths are checked here; undeclared ones are bounded by `MaxBodySize` for every reader
 * below (text, JSON, forms, multipart). Registered before every other global middleware. The
 * receipt upload's bound comes from the top-up settings, read when the layer is built.
 */
export const BodyLimit = HttpRouter.middleware(
  Effect.gen(function* () {
    const uploadLimit = receiptLimits(yield* TopupSettings).body
    return (httpEffect) =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        const limit = isUpload(request.method, request.url) ? uploadLimit : JSON_BODY_LIMIT
        const declared = request.headers["content-length"]
        if (declared !== undefined && Number(declared) > limit)
          return Effect.succeed(payloadTooLarge(request.url, limit))
        return httpEffect.pipe(
          Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(limit)),
          Effect.catchIf(isBodyTooLarge, () => Effect.succeed(payloadTooLarge(request.url, limit)))
        )
      })
  }),
  { global: true }
)
