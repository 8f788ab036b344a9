import { HttpApi, OpenApi } from "effect/http-api"
import { AccountApi } from "./AccountApi.ts"
import { AdminApi } from "./AdminApi.ts"
import { RequestValidation } from "./Middleware.ts"
import { ListsApi } from "./ListsApi.ts"
import { AdminProgrammaticApi, ProgrammaticApi } from "./ProgrammaticApi.ts"
import { AdminLoginApi, PricingApi, PublicApi } from "./PublicApi.ts"

/**
 * The whole /v2 surface. RequestValidation is added last so it wraps every other middleware:
 * invalid input answers 422 before any authentication check, as the original service does.
 */
export class Api extends HttpApi.make("resale")
  .add(PublicApi)
  .add(AdminLoginApi)
  .add(PricingApi)
  .add(AccountApi)
  .add(AdminApi)
  .add(ProgrammaticApi)
  .add(ListsApi)
  .add(AdminProgrammaticApi)
  .middleware(RequestValidation)
  .annotateMerge(OpenApi.annotations({
    title: "Resale account service",
    version: "0.1.0",
    description: "Account surface, operator pages and the API-key API under /v2."
  }))
{}

export const OPENAPI_PATH = "/v2/openapi.json"
