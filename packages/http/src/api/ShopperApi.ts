import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as Dto from "@resale/wire/Dtos.ts"
import { HandlerErrors } from "./Errors.ts"
import { IdempotencyHeader, LenientCount } from "@resale/webkit/Fields.ts"
import { PremiumForm, StarsForm } from "@resale/webkit/FormPayloads.ts"
import { UserSession } from "./Middleware.ts"

/**
 * The web shopper's own routes that the served document does not list (the web UI's, not an
 * integrator's): Stars and Premium bought from the dashboard's forms, paid from the same balance,
 * with the same order service, idempotency and answer (`OrderCreated`) as the API-key API; and the
 * balance history. Validation comes before the session check, as on every /v2 route.
 */
export class ShopperApi extends HttpApiGroup.make("shopper")
  .add(
    HttpApiEndpoint.post("buyStars", "/v2/orders/stars", {
      headers: IdempotencyHeader,
      payload: StarsForm,
      success: Dto.OrderCreated,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("buyPremium", "/v2/orders/premium", {
      headers: IdempotencyHeader,
      payload: PremiumForm,
      success: Dto.OrderCreated,
      error: HandlerErrors
    }),
    // Every ledger entry of the account, newest first, with its cause and the balance right after it.
    HttpApiEndpoint.get("balanceHistory", "/v2/balance/history", {
      query: { offset: LenientCount(0), limit: LenientCount(20) },
      success: Dto.HistoryPage
    })
  )
  .middleware(UserSession)
  .annotate(OpenApi.Exclude, true) {}
