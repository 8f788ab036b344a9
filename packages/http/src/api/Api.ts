import { HttpApi, OpenApi } from "effect/http-api"
import { AccountApi } from "./AccountApi.ts"
import { AdminApi } from "./AdminApi.ts"
import { RequestValidation } from "./Middleware.ts"
import { ListsApi } from "./ListsApi.ts"
import { OperatorListsApi } from "./OperatorListsApi.ts"
import { BankPaymentsApi } from "./BankPaymentsApi.ts"
import { PanelFormsApi } from "./PanelFormsApi.ts"
import { PeopleApi } from "./PeopleApi.ts"
import { ReportsApi } from "./ReportsApi.ts"
import { contractTransform } from "./OpenApiContract.ts"
import { AdminProgrammaticApi, ProgrammaticApi } from "./ProgrammaticApi.ts"
import { AdminLoginApi, PricingApi, PublicApi } from "./PublicApi.ts"
import { SandboxApi } from "./SandboxApi.ts"
import { ShopperApi } from "./ShopperApi.ts"
import { WebhooksApi } from "./WebhooksApi.ts"

const API_DESCRIPTION = [
  "Account surface, operator pages and the API-key API under /v2.",
  "",
  "Authentication: integrators send `X-API-Key`; operators' machines `X-Admin-Token`; web pages use the session cookies.",
  'Errors: `{"detail", "code", "params", "request_id"}`; `code` is stable (see the ErrorCode schema), invalid input is FastAPI\'s 422 list (with `code: "validation_error"` and `request_id`).',
  "Money-moving calls take an `Idempotency-Key` (24 hours, one per request of its owner; replays say `Idempotent-Replayed: true`).",
  "Every answer carries `X-Request-Id` (send your own to correlate).",
  "Webhooks: register endpoints under /v2/api/webhooks; events are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`).",
  "The direct purchase surface (pay from your own TON wallet) has its own document: /direct/openapi.json."
].join("\n")

/**
 * The whole /v2 surface. RequestValidation is added last so it wraps every other middleware:
 * invalid input answers 422 before any authentication check, as the original service does.
 */
const Routes = HttpApi.make("resale")
  .add(PublicApi)
  .add(AdminLoginApi)
  .add(PricingApi)
  .add(AccountApi)
  .add(AdminApi)
  .add(ProgrammaticApi)
  .add(ListsApi)
  .add(WebhooksApi)
  .add(AdminProgrammaticApi)
  .add(ShopperApi)
  .add(SandboxApi)
  .add(OperatorListsApi)
  .add(ReportsApi)
  .add(PeopleApi)
  .add(BankPaymentsApi)
  .add(PanelFormsApi)
  .middleware(RequestValidation)

export class Api extends Routes.annotateMerge(
  OpenApi.annotations({
    title: "Resale account service",
    version: "0.1.0",
    description: API_DESCRIPTION,
    transform: contractTransform(Routes)
  })
) {}

export const OPENAPI_PATH = "/v2/openapi.json"
