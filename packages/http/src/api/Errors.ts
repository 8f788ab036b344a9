import { Schema } from "effect"
import { ErrorCode, ErrorParams } from "@resale/wire/ErrorCodes.ts"

/**
 * The request's id in an error body: the server adds it to every error answer where answers are
 * sent (`server/ErrorBody.ts`), so handlers never set it; the document lists it as required.
 */
const RequestIdField = Schema.String.annotate({
  description: "The answer's `X-Request-Id`: quote it to find the request in the server's logs."
})

/**
 * Every non-validation failure answers `{"detail": "...", "code": "...", "request_id": "..."}`:
 * `detail` as the original FastAPI service words it, `code` for machines (stable), `params` with
 * the values behind the text.
 */
const fields = {
  detail: Schema.String,
  code: ErrorCode,
  params: Schema.optionalKey(ErrorParams),
  request_id: Schema.optionalKey(RequestIdField)
}

export class BadRequest extends Schema.Error<BadRequest>("BadRequest")(fields, {
  httpApiStatus: 400,
  description: "The request breaks a business rule; `code` says which."
}) {}
export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")(fields, {
  httpApiStatus: 401,
  description: "Missing or invalid credentials."
}) {}
export class Forbidden extends Schema.Error<Forbidden>("Forbidden")(fields, {
  httpApiStatus: 403,
  description: "The credentials are valid but the request is refused."
}) {}
export class NotFound extends Schema.Error<NotFound>("NotFound")(fields, {
  httpApiStatus: 404,
  description: "No such record, or one the caller may not see."
}) {}
export class Conflict extends Schema.Error<Conflict>("Conflict")(fields, {
  httpApiStatus: 409,
  description:
    "A state conflict: balance too low, invalid transition, Idempotency-Key reused (another body or another endpoint) or in progress."
}) {}
export class TooManyRequests extends Schema.Error<TooManyRequests>("TooManyRequests")(fields, {
  httpApiStatus: 429,
  description: "A quota or rate limit is used up; `Retry-After` says when to try again."
}) {}
export class PayloadTooLarge extends Schema.Error<PayloadTooLarge>("PayloadTooLarge")(fields, {
  httpApiStatus: 413,
  description: "The request body is too large."
}) {}
export class ServiceUnavailable extends Schema.Error<ServiceUnavailable>("ServiceUnavailable")(fields, {
  httpApiStatus: 503,
  description: "A dependency (the marketplace, the gift catalogue) is unavailable; retry later."
}) {}

/** One entry of FastAPI's validation error list (pydantic 2 error record). */
export const ValidationErrorItem = Schema.Struct({
  type: Schema.String,
  loc: Schema.Array(Schema.Union([Schema.String, Schema.Int])),
  msg: Schema.String,
  input: Schema.optionalKey(Schema.Unknown),
  ctx: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
}).annotate({ identifier: "ValidationError", title: "ValidationError" })
export type ValidationErrorItem = typeof ValidationErrorItem.Type

/** FastAPI's 422 body, `detail` unchanged; `code` and `request_id` are added as to every error body. */
export class HTTPValidationError extends Schema.Error<HTTPValidationError>("HTTPValidationError")(
  {
    detail: Schema.Array(ValidationErrorItem),
    code: Schema.optionalKey(
      Schema.Literal("validation_error").annotate({ description: "Always `validation_error` on a 422." })
    ),
    request_id: Schema.optionalKey(RequestIdField)
  },
  { httpApiStatus: 422, title: "HTTPValidationError" }
) {}

/** The errors a handler may answer besides validation and authentication. */
export const HandlerErrors = [BadRequest, Forbidden, NotFound, Conflict, TooManyRequests, ServiceUnavailable] as const
export type HandlerError = BadRequest | Forbidden | NotFound | Conflict | TooManyRequests | ServiceUnavailable

/** The HTTP status of each error class (the schema's `httpApiStatus`), for routes that answer by hand. */
export const statusOf = (error: HandlerError | Unauthorized | PayloadTooLarge): number =>
  error instanceof BadRequest
    ? 400
    : error instanceof Unauthorized
      ? 401
      : error instanceof Forbidden
        ? 403
        : error instanceof NotFound
          ? 404
          : error instanceof Conflict
            ? 409
            : error instanceof PayloadTooLarge
              ? 413
              : error instanceof TooManyRequests
                ? 429
                : 503
