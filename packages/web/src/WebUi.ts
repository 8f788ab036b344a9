import { Layer } from "effect"
import type { KnownRoute } from "@resale/http/validation/FastApiFallback.ts"
import { WebGateway } from "./gateway/WebGateway.ts"
import { ASSET_ROUTES, AssetRoutes } from "./routes/AssetRoutes.ts"
import { HISTORY_ROUTES, HistoryRoutes } from "./routes/HistoryRoutes.ts"
import { PAYMENT_ROUTES, PaymentRoutes } from "./routes/PaymentRoutes.ts"
import { SANDBOX_ROUTES, SandboxRoutes } from "./routes/SandboxRoutes.ts"
import { PEOPLE_ROUTES, PeopleRoutes } from "./routes/PeopleRoutes.ts"
import { OPERATOR_ROUTES, OperatorRoutes } from "./routes/OperatorRoutes.ts"
import { REPORT_ROUTES, ReportRoutes } from "./routes/ReportRoutes.ts"
import { GIFT_PICTURE_ROUTES, GiftPictureRoutes } from "./routes/GiftPictureRoutes.ts"
import { ROOT_ROUTES, RootRoute } from "./routes/RootRoute.ts"
import { SHOPPER_ROUTES, ShopperRoutes } from "./routes/ShopperRoutes.ts"

/**
 * The web UI for shoppers and operators, mounted beside the /v2 routes: the gateway that turns
 * browser requests into pages (global middleware), the static assets and language switch, and the
 * few JSON routes the pages need that the contract lacks. API clients see no difference.
 */
export const WebUi = Layer.mergeAll(
  WebGateway,
  AssetRoutes,
  ShopperRoutes,
  OperatorRoutes,
  RootRoute,
  HistoryRoutes,
  PeopleRoutes,
  ReportRoutes,
  PaymentRoutes,
  SandboxRoutes,
  GiftPictureRoutes
)

/** Method and path of every route the web UI adds, for the server's 405 answers. */
export const WEB_ROUTES: ReadonlyArray<KnownRoute> = [
  ...ROOT_ROUTES,
  ...ASSET_ROUTES,
  ...SHOPPER_ROUTES,
  ...HISTORY_ROUTES,
  ...OPERATOR_ROUTES,
  ...PEOPLE_ROUTES,
  ...REPORT_ROUTES,
  ...PAYMENT_ROUTES,
  ...SANDBOX_ROUTES,
  ...GIFT_PICTURE_ROUTES
]
