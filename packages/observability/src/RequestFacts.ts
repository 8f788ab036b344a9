/**
 * What inner layers of the HTTP stack learn about a request and the outer request log wants to print:
 * the authenticated user. The auth middleware runs deep inside the router, where the context it
 * provides is gone again by the time the response passes the request log, so it notes the user
 * here, keyed by the request's underlying Node message (the same object however the request is wrapped).
 */
import type { HttpServerRequest } from "effect/http"

const users = new WeakMap<object, string>()

const keyOf = (request: HttpServerRequest.HttpServerRequest): object =>
  typeof request.source === "object" && request.source !== null ? request.source : request

/** Records the user a request was authenticated as (a user id, or `operator`). */
export const noteRequestUser = (request: HttpServerRequest.HttpServerRequest, user: string | number): void => {
  users.set(keyOf(request), String(user))
}

/** The user noted for the request, if any. */
export const requestUser = (request: HttpServerRequest.HttpServerRequest): string | undefined => users.get(keyOf(request))
