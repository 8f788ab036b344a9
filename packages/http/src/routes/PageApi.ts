import { Layer } from "effect"
import type { KnownRoute } from "../validation/FastApiFallback.ts"
import { OPERATOR_ROUTES, OperatorRoutes } from "./OperatorRoutes.ts"
import { PAYMENT_ROUTES, PaymentRoutes } from "./PaymentRoutes.ts"
import { PEOPLE_ROUTES, PeopleRoutes } from "./PeopleRoutes.ts"
import { REPORT_ROUTES, ReportRoutes } from "./ReportRoutes.ts"

/**
 * The JSON routes the pages fetch and post to that the HttpApi contract lacks (lists, reports,
 * bank payments). They answer like the
 * rest of /v2; the web UI (`@resale/web`) draws pages from them.
 */
export const PageApi = Layer.mergeAll(OperatorRoutes, PeopleRoutes, ReportRoutes, PaymentRoutes)

/** Method and path of every page API route, for the server's 405 answers. */
export const PAGE_API_ROUTES: ReadonlyArray<KnownRoute> = [
  ...OPERATOR_ROUTES,
  ...PEOPLE_ROUTES,
  ...REPORT_ROUTES,
  ...PAYMENT_ROUTES
]
