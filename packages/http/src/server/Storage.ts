import { StoreLive } from "@resale/store/StoreLive.ts"
import type { HttpSettings } from "@resale/webkit/HttpConfig.ts"

/**
 * The storage ports on PostgreSQL: `DATABASE_URL` when set (pool `PG_POOL_MAX`), otherwise the embedded
 * PGlite kept under `DATA_DIR/pg`. Migrations run at start; the connection stays visible for `/healthz`.
 */
export const storageLayer = (settings: HttpSettings) => StoreLive.layer(settings)
