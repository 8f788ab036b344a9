import { Schema } from "effect"

// Every non-validation failure answers `{"detail": "..."}` like the original FastAPI service.
const detail = { detail: Schema.String }

export class BadRequest extends Schema.Error<BadRequest>("BadRequest")(detail, { httpApiStatus: 400 }) {}
export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")(detail, { httpApiStatus: 401 }) {}
export class Forbidden extends Schema.Error<Forbidden>("Forbidden")(detail, { httpApiStatus: 403 }) {}
export class NotFound extends Schema.Error<NotFound>("NotFound")(detail, { httpApiStatus: 404 }) {}
export class Conflict extends Schema.Error<Conflict>("Conflict")(detail, { httpApiStatus: 409 }) {}
export class TooManyRequests extends Schema.Error<TooManyRequests>("TooManyRequests")(detail, { httpApiStatus: 429 }) {}
export class PayloadTooLarge extends Schema.Error<PayloadTooLarge>("PayloadTooLarge")(detail, { httpApiStatus: 413 }) {}
export class ServiceUnavailable extends Schema.Error<ServiceUnavailable>("ServiceUnavailable")(detail, {
  httpApiStatus: 503
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

export class HTTPValidationError extends Schema.Error<HTTPValidationError>("HTTPValidationError")({
  detail: Schema.Array(ValidationErrorItem)
}, { httpApiStatus: 422, title: "HTTPValidationError" }) {}

/** The errors a handler may answer besides validation and authentication. */
export const HandlerErrors = [BadRequest, Forbidden, NotFound, Conflict, TooManyRequests, ServiceUnavailable] as const
export type HandlerError = BadRequest | Forbidden | NotFound | Conflict | TooManyRequests | ServiceUnavailable

export const notFound = (what: string) => new NotFound({ detail: `${what} not found` })
