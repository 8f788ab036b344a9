import type { Prices } from "@resale/core"
import { noteRequestRoute } from "@resale/observability/RequestFacts.ts"
import { Context, Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as Dto from "@resale/wire/Dtos.ts"
import { PricingApi } from "../api/PublicApi.ts"
import { pricingOut } from "../handlers/Wire.ts"
import { FrontDoor } from "../server/FrontDoor.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { PricingCache } from "./PricingCache.ts"

/** The contract's path for the price list. */
const PRICING_PATH: string = PricingApi.endpoints.pricing.path

/** The pricing path, with or without a query. */
const isPricing = (url: string): boolean => {
  if (!url.startsWith(PRICING_PATH)) return false
  const rest = url.slice(PRICING_PATH.length)
  return rest === "" || rest.startsWith("?")
}

/**
 * `GET /v2/api/pricing`, the most polled route (every page and client shows prices), answered in
 * front of the router from a body encoded once per price list with the contract's own schema.
 * The HttpApi endpoint stays the contract and answers everything else on that path (HEAD);
 * the answer is the same, without the per-request decoding, middleware and encoding that a route
 * with no input and no authentication does not need. Prices come from `PricingCache`, so an
 * operator's change shows at once here and within a second on other instances.
 * Where the server has a `FrontDoor`, a GET is answered there while the cache's list is fresh (no
 * request fiber at all); the first request after the list expired comes here and reads it again.
 */
export const PricingFastPath = HttpRouter.middleware(
  Effect.gen(function* () {
    const cache = yield* PricingCache
    const { sandbox } = yield* HttpConfig
    const encode = Schema.encodeSync(Dto.Pricing)
    let encoded: { readonly prices: Prices; readonly response: HttpServerResponse.HttpServerResponse } | undefined
    const responseFor = (prices: Prices) => {
      if (encoded?.prices !== prices) {
        encoded = { prices, response: HttpServerResponse.jsonUnsafe(encode(pricingOut(prices, sandbox))) }
      }
      return encoded.response
    }
    const answer = Effect.map(cache.get, responseFor)
    const door = yield* Effect.serviceOption(FrontDoor)
    if (Option.isSome(door)) {
      door.value.add((method, url) => {
        if (method !== "GET" || !isPricing(url)) return undefined
        const prices = cache.current()
        return prices === undefined ? undefined : responseFor(prices)
      }, PRICING_PATH)
    }
    return (router) =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        if (request.method !== "GET" || !isPricing(request.url)) return router
        // Answered before the router: the route is named here, as the router's routes note theirs.
        noteRequestRoute(request, PRICING_PATH)
        return answer
      })
  }),
  { global: true }
)
