import type { PgClient, PgMigrator } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { inject } from "vitest"
import { Migrations } from "../Migrations.ts"
import { PgConnection } from "../PgConnection.ts"
import { PgStore } from "../PgStore.ts"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "./TestDatabase.ts"

/** Name prefix of the per-file / per-test databases. */
export const isolatedPrefix = "resale_t"

const templateName = (): string | undefined => {
  try {
    return inject("resaleTemplateDatabase")
  } catch {
    return undefined
  }
}

/**
 * A fresh, migrated database on the test server (`TEST_DATABASE_URL`), copied from this run's template
 * (see `globalSetup.ts`) and dropped when the layer's scope closes. Built once per `layer(...)` block
 * (one database per test file) or once per test with `Effect.provide(IsolatedPostgres.layer)`.
 * Without the global setup it migrates the new database itself (slower, same result).
 */
const make = (maxConnections: number): Layer.Layer<PgClient.PgClient | SqlClient, SqlError | PgMigrator.MigrationError> =>
  Layer.unwrap(
    Effect.gen(function*() {
      const template = templateName()
      const name = uniqueName(isolatedPrefix)
      yield* Effect.acquireRelease(
        createDatabase(name, template),
        () => dropDatabase(name).pipe(Effect.orDie)
      )
      const connection = PgConnection.layerFromUrl(databaseUrl(name), maxConnections)
      return template === undefined ? Layer.provideMerge(Migrations.layer, connection) : connection
    })
  )

/** The connection only (pool of 10). */
const layer: Layer.Layer<PgClient.PgClient | SqlClient, SqlError | PgMigrator.MigrationError> = make(10)

/** The whole store (`PgStore.layer`) over its own fresh database, with the connection still visible. */
const layerStore = PgStore.layer.pipe(Layer.provideMerge(layer))

export const IsolatedPostgres = { layer, layerStore, make } as const
