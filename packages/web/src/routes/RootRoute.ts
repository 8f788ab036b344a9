import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"

/**
 * `/` is where the start banner and people's habits point: it sends browsers and clients alike to
 * the shop's home page `/v2/` (302, so the target can move later without browsers remembering).
 */
export const ROOT_ROUTES = [{ method: "GET", path: "/" }] as const

export const RootRoute = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    yield* router.add("GET", "/", Effect.succeed(HttpServerResponse.redirect("/v2/", { status: 302 })))
  })
)
