import { HttpBody, HttpServerResponse } from "effect/http"
import type { ErrorCode } from "@resale/wire/ErrorCodes.ts"

/**
 * Every JSON error answer (status >= 400) leaves the server with `request_id` (the `X-Request-Id`
 * it is sent with) and a string `code`, whichever route, middleware or early answer made it: the
 * bodies are stamped here, where answers are sent (`withRequestId`), not at each call site.
 * FastAPI's 422 keeps its `detail` list and gains `code: "validation_error"`; the direct surface's
 * flat `{ok: false, code, message}` gains `request_id`. Successes are never touched.
 */

/** The code of a body that has none, by its status (a 422 is FastAPI's validation list). */
const CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  401: "not_authenticated",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
  422: "validation_error",
  429: "rate_limited"
}

export const fallbackCode = (status: number): ErrorCode =>
  CODE_BY_STATUS[status] ?? (status >= 500 ? "internal_error" : "request_refused")

const isJson = (contentType: string): boolean =>
  contentType === "application/json" || contentType.startsWith("application/json;")

/** `response` with `request_id` (and `code` if it had none) in its JSON object body; anything else as it is. */
export const stampErrorBody = (
  response: HttpServerResponse.HttpServerResponse,
  requestId: string
): HttpServerResponse.HttpServerResponse => {
  const body = response.body
  if (response.status < 400 || body._tag !== "Uint8Array" || !isJson(body.contentType)) return response
  let parsed: unknown
  try {
    parsed = JSON.parse(body.text ?? Buffer.from(body.body).toString("utf8"))
  } catch {
    return response
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return response
  const fields = parsed as Record<string, unknown>
  const stamped =
    typeof fields["code"] === "string"
      ? { ...fields, request_id: requestId }
      : { ...fields, code: fallbackCode(response.status), request_id: requestId }
  return HttpServerResponse.setBody(response, HttpBody.text(JSON.stringify(stamped), body.contentType))
}
