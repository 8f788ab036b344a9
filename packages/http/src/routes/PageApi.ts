import { Layer } from "effect"
import type { KnownRoute } from "../validation/FastApiFallback.ts"
import { HISTORY_ROUTES, HistoryRoutes } from "./HistoryRoutes.ts"
import { SANDBOX_ROUTES, SandboxRoutes } from "./SandboxRoutes.ts"
import { SHOPPER_ROUTES, ShopperRoutes } from "./ShopperRoutes.ts"

/**
 * The JSON routes the pages fetch and post to that the HttpApi contract lacks (a shopper's
 * history, the sandbox push inbox, orders from a form). They answer like the
 * rest of /v2; the web UI (`@resale/web`) draws pages from them.
 */
export const PageApi = Layer.mergeAll(ShopperRoutes, HistoryRoutes, SandboxRoutes)

/** Method and path of every page API route, for the server's 405 answers. */
export const PAGE_API_ROUTES: ReadonlyArray<KnownRoute> = [...SHOPPER_ROUTES, ...HISTORY_ROUTES, ...SANDBOX_ROUTES]
