import type { PgClient, PgMigrator } from "@effect/sql-pg"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import type { ConfigError } from "effect/Config"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { EmbeddedPostgres, type EmbeddedPostgresError } from "./EmbeddedPostgres.ts"
import { Migrations } from "./Migrations.ts"
import { PgConnection } from "./PgConnection.ts"
import { PgStore, type StorePorts } from "./PgStore.ts"

export type StoreError = ConfigError | SqlError | PgMigrator.MigrationError | EmbeddedPostgresError

/**
 * The database the configuration names, migrated: `DATABASE_URL` (pool `PG_POOL_MAX`, default 10) when
 * set, otherwise the embedded PostgreSQL persisted under `${DATA_DIR}/pg` (`DATA_DIR` default `.data`).
 */
const selected: Layer.Layer<PgClient.PgClient | SqlClient, StoreError> = Layer.unwrap(
  Effect.gen(function* () {
    // An exported but empty DATABASE_URL (`DATABASE_URL= npm start`) means "not set", as the CLI reads it.
    const url = Option.filter(
      yield* Config.option(Config.Redacted("DATABASE_URL")),
      (u) => Redacted.value(u).trim() !== ""
    )
    if (Option.isSome(url)) {
      const max = yield* Config.Int("PG_POOL_MAX").pipe(Config.withDefault(10))
      return PgConnection.layerFromUrl(url.value, max)
    }
    const dataRoot = yield* Config.String("DATA_DIR").pipe(Config.withDefault(".data"))
    yield* Effect.logInfo(`DATABASE_URL is not set: embedded PostgreSQL in ${EmbeddedPostgres.dataDirOf(dataRoot)}`)
    return EmbeddedPostgres.layer(EmbeddedPostgres.dataDirOf(dataRoot))
  })
)

/** The selected connection, migrated before anything uses it. */
const connection: Layer.Layer<PgClient.PgClient | SqlClient, StoreError> = Migrations.layer.pipe(
  Layer.provideMerge(selected)
)

/** Every storage port plus the migrated connection under it. */
const layer: Layer.Layer<StorePorts | PgClient.PgClient | SqlClient, StoreError> = PgStore.layer.pipe(
  Layer.provideMerge(connection)
)

export const StoreLive = { layer, connection } as const
