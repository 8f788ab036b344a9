import { Migrations } from "@resale/store/Migrations.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import type { PgClient } from "@effect/sql-pg/PgClient"
import type { StoreError } from "@resale/store/StoreLive.ts"
import type { SqlClient } from "effect/sql/SqlClient"
import type { HttpSettings } from "@resale/webkit/HttpConfig.ts"

/**
 * The storage ports on PostgreSQL: `DATABASE_URL` when set (pool `PG_POOL_MAX`, default 10), otherwise
 * the embedded PGlite kept under `DATA_DIR/pg`. Migrations run at start; the connection stays visible for `/healthz`.
 */
export const storageLayer = (settings: HttpSettings) => {
  const connection: Layer.Layer<PgClient | SqlClient, StoreError> = Option.match(settings.databaseUrl, {
    // PGlite is loaded only for the embedded database, never with DATABASE_URL.
    onNone: () =>
      Layer.unwrap(
        Effect.promise(() => import("@resale/store/EmbeddedPostgres.ts")).pipe(
          Effect.map(({ EmbeddedPostgres }) => EmbeddedPostgres.layer(EmbeddedPostgres.dataDirOf(settings.dataDir)))
        )
      ),
    onSome: (url) =>
      Layer.unwrap(
        Effect.map(Config.Int("PG_POOL_MAX").pipe(Config.withDefault(10)), (max) =>
          PgConnection.layerFromUrl(Redacted.value(url), Math.max(1, max))
        )
      )
  })
  return PgStore.layer.pipe(Layer.provideMerge(Migrations.layer), Layer.provideMerge(connection))
}
