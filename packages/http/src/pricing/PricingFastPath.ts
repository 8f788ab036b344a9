import type { Prices } from "@resale/core"
import { Context, Effect, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as Dto from "../api/Dtos.ts"
import { PricingApi } from "../api/PublicApi.ts"
import { pricingOut } from "../handlers/Wire.ts"
import { HttpConfig } from "../server/HttpConfig.ts"
import { PricingCache } from "./PricingCache.ts"

/** The contract's path for the price list. */
const PRICING_PATH: string = PricingApi.endpoints.pricing.path

/**
 * `GET /v2/api/pricing`, the most polled route (every page and client shows prices), answered in
 * front of the router from a body encoded once per price list with the contract's own schema.
 * The HttpApi endpoint stays the contract and answers everything else on that path (HEAD);
 * the answer is the same, without the per-request decoding, middleware and encoding that a route
 * with no input and no authentication does not need. Prices come from `PricingCache`, so an
 * operator's change shows at once here and within a second on other instances.
 */
export const PricingFastPath = HttpRouter.middleware(
  Effect.gen(function*() {
    const cache = yield* PricingCache
    const { sandbox } = yield* HttpConfig
    const encode = Schema.encodeSync(Dto.Pricing)
    let encoded: { readonly prices: Prices; readonly response: HttpServerResponse.HttpServerResponse } | undefined
    const answer = Effect.map(cache.get, (prices) => {
      if (encoded?.prices !== prices) {
        encoded = { prices, response: HttpServerResponse.jsonUnsafe(encode(pricingOut(prices, sandbox))) }
      }
      return encoded.response
    })
    return (router) =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        if (request.method !== "GET" || !request.url.startsWith(PRICING_PATH)) return router
        const rest = request.url.slice(PRICING_PATH.length)
        return rest === "" || rest.startsWith("?") ? answer : router
      })
  }),
  { global: true }
)
