import type { PgClient, PgMigrator } from "@effect/sql-pg"
import { Effect, Layer, Option, type Redacted } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type { EmbeddedPostgresError } from "./EmbeddedPostgres.ts"
import { Migrations } from "./Migrations.ts"
import { PgConnection } from "./PgConnection.ts"
import { PgStore, type StorePorts } from "./PgStore.ts"

export type StoreError = SqlError | PgMigrator.MigrationError | EmbeddedPostgresError

/** Where the data lives (`DATABASE_URL`, `PG_POOL_MAX`, `DATA_DIR`, read by `@resale/config`). */
export interface StoreSettings {
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly pgPoolMax: number
  readonly dataDir: string
}

/**
 * The database `settings` name, migrated before anything uses it: the server at `databaseUrl` when
 * set, otherwise the embedded PostgreSQL persisted under `${dataDir}/pg` (PGlite is loaded only then).
 */
const connection = (settings: StoreSettings): Layer.Layer<PgClient.PgClient | SqlClient, StoreError> =>
  Migrations.layer.pipe(
    Layer.provideMerge(
      Option.match(settings.databaseUrl, {
        onNone: () =>
          Layer.unwrap(
            Effect.map(
              Effect.promise(() => import("./EmbeddedPostgres.ts")),
              ({ EmbeddedPostgres }) => EmbeddedPostgres.layer(EmbeddedPostgres.dataDirOf(settings.dataDir))
            )
          ),
        onSome: (url) => PgConnection.layerFromUrl(url, settings.pgPoolMax)
      })
    )
  )

/** Every storage port plus the migrated connection under it. */
const layer = (settings: StoreSettings): Layer.Layer<StorePorts | PgClient.PgClient | SqlClient, StoreError> =>
  PgStore.layer.pipe(Layer.provideMerge(connection(settings)))

export const StoreLive = { layer, connection } as const
