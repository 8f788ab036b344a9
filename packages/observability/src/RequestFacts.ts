/**
 * What inner layers of the HTTP stack learn about a request and the outer request log wants to print:
 * the matched route pattern and the authenticated user. Both are known deep inside the router, where
 * the context is gone again by the time the response passes the request log, so they are noted here,
 * keyed by the request's underlying Node message (the same object however the request is wrapped).
 */
import { Context, Effect, type Layer } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"

const users = new WeakMap<object, string>()
const routes = new WeakMap<object, string>()

const keyOf = (request: HttpServerRequest.HttpServerRequest): object =>
  typeof request.source === "object" && request.source !== null ? request.source : request

/** Records the user a request was authenticated as (a user id, or `operator`). */
export const noteRequestUser = (request: HttpServerRequest.HttpServerRequest, user: string | number): void => {
  users.set(keyOf(request), String(user))
}

/** The user noted for the request, if any. */
export const requestUser = (request: HttpServerRequest.HttpServerRequest): string | undefined =>
  users.get(keyOf(request))

/** Records the route pattern of a request answered in front of the router by a route of the table (a fast path). */
export const noteRequestRoute = (request: HttpServerRequest.HttpServerRequest, route: string): void => {
  routes.set(keyOf(request), route)
}

/** The route pattern the router matched for the request, if it matched one. */
export const requestRoute = (request: HttpServerRequest.HttpServerRequest): string | undefined =>
  routes.get(keyOf(request))

/**
 * A route middleware (every route added in its context gets it) noting the matched pattern. Route
 * middleware runs after the match, where the router's `RouteContext` is in scope.
 */
export const RouteNoting: Layer.Layer<never> = HttpRouter.middleware((effect) =>
  Effect.withFiber((fiber) => {
    const route = Context.getOrUndefined(fiber.context, HttpRouter.RouteContext)
    const request = Context.getOrUndefined(fiber.context, HttpServerRequest.HttpServerRequest)
    if (route !== undefined && request !== undefined) routes.set(keyOf(request), route.route.path)
    return effect
  })
).layer as unknown as Layer.Layer<never>
