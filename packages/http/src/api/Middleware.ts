import type { UserId } from "@resale/core"
import { Context } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest, Forbidden, HTTPValidationError, PayloadTooLarge, TooManyRequests, Unauthorized } from "./Errors.ts"

/** The signed-in web user (session cookie) or API-key owner. */
export interface Principal {
  readonly userId: UserId
}

export class CurrentUser extends Context.Service<CurrentUser, Principal>()("http/api/CurrentUser") {}

/** An operator, signed in with the admin token (cookie session or `X-Admin-Token`). */
export class CurrentOperator extends Context.Service<CurrentOperator, { readonly via: "session" | "token" }>()(
  "http/api/CurrentOperator"
) {}

/**
 * Validates every slot of the request (path, query, headers, body) before anything else runs,
 * answering FastAPI's 422 with all invalid parts together. Outermost middleware of the API.
 */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()("http/api/RequestValidation", {
  error: [HTTPValidationError, BadRequest, PayloadTooLarge]
}) {}

/** Web pages and form posts of a signed-in user (session cookie; cross-site POSTs refused). */
export class UserSession extends HttpApiMiddleware.Service<UserSession, { provides: CurrentUser }>()(
  "http/api/UserSession",
  { error: [Unauthorized, Forbidden] }
) {}

/** Programmatic user calls: `X-API-Key`. */
export class ApiKeyAuth extends HttpApiMiddleware.Service<ApiKeyAuth, { provides: CurrentUser }>()(
  "http/api/ApiKeyAuth",
  { error: Unauthorized }
) {}

/** Operator pages and form posts: the admin session cookie. */
export class OperatorSession extends HttpApiMiddleware.Service<OperatorSession, { provides: CurrentOperator }>()(
  "http/api/OperatorSession",
  { error: [Unauthorized, Forbidden] }
) {}

/** Operator programmatic calls: `X-Admin-Token`, compared in constant time; wrong ones throttled per address. */
export class AdminTokenAuth extends HttpApiMiddleware.Service<AdminTokenAuth, { provides: CurrentOperator }>()(
  "http/api/AdminTokenAuth",
  { error: [Unauthorized, TooManyRequests] }
) {}
