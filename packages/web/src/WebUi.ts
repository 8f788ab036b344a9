import { Layer } from "effect"
import { WebGateway } from "./gateway/WebGateway.ts"
import { ASSET_ROUTES, AssetRoutes } from "./routes/AssetRoutes.ts"
import { GIFT_PICTURE_ROUTES, GiftPictureRoutes } from "./routes/GiftPictureRoutes.ts"
import { ROOT_ROUTES, RootRoute } from "./routes/RootRoute.ts"

/**
 * The web UI for shoppers and operators, mounted beside the /v2 routes by the server's start entry:
 * the gateway that turns browser requests into pages (global middleware), the static assets and
 * language switch, and the gift pictures. API clients see no difference. The JSON routes the pages
 * fetch and post to are groups of http's typed contract (`@resale/http/api/*Api.ts`).
 */
export const WebUi = Layer.mergeAll(WebGateway, AssetRoutes, RootRoute, GiftPictureRoutes)

/** Method and path of every route the web UI adds, for the server's 405 answers. */
export const WEB_ROUTES: ReadonlyArray<{ readonly method: string; readonly path: string }> = [
  ...ROOT_ROUTES,
  ...ASSET_ROUTES,
  ...GIFT_PICTURE_ROUTES
]
