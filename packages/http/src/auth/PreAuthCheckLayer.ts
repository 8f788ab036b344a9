import { Context, Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { CheckBeforeAuth, PreAuthCheck } from "../api/PreAuthCheck.ts"

export const PreAuthCheckLayer = Layer.succeed(PreAuthCheck)((httpEffect, { endpoint }) => {
  const check = Context.get(endpoint.annotations, CheckBeforeAuth)
  if (check === undefined) return httpEffect
  return Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const route = yield* HttpRouter.RouteContext
    yield* check({ params: route.params, headers: request.headers })
    return yield* httpEffect
  })
})
