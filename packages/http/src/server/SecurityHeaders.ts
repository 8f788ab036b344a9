import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"

/**
 * Headers every answer gets, whatever route made it:
 * - `Cache-Control: no-store` unless the route chose its own caching: answers carry balances, orders,
 *   receipts, the shown-once API key; no shared or browser cache may keep them. Static assets and
 *   other public answers set their own `Cache-Control` and keep it.
 * - `Strict-Transport-Security` when the public address is https, so browsers never try plain http.
 */
export const HSTS = "max-age=31536000; includeSubDomains"

export const withSecurityHeaders = (
  response: HttpServerResponse.HttpServerResponse,
  https: boolean
): HttpServerResponse.HttpServerResponse => {
  let out = response
  if (out.headers["cache-control"] === undefined) out = HttpServerResponse.setHeader(out, "cache-control", "no-store")
  if (https) out = HttpServerResponse.setHeader(out, "strict-transport-security", HSTS)
  return out
}

export const SecurityHeaders = HttpRouter.middleware(
  Effect.gen(function* () {
    const https = (yield* HttpConfig).publicUrl.startsWith("https://")
    return (httpEffect) => Effect.map(httpEffect, (response) => withSecurityHeaders(response, https))
  }),
  { global: true }
)
