import type { PgClient, PgMigrator } from "@effect/sql-pg"
import { Effect, Layer, type Scope } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { inject } from "vitest"
import { Migrations } from "../Migrations.ts"
import { PgConnection } from "../PgConnection.ts"
import { PgStore } from "../PgStore.ts"
import { pooledCopy } from "./DatabasePool.ts"
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
 * A fresh, migrated database on the test server (`TEST_DATABASE_URL`) for the scope; its URL. An
 * emptied copy of this run's template (see `globalSetup.ts` and `DatabasePool.ts`: a copy with the
 * template's schema is emptied and reused, any other is dropped); without the global setup a new
 * database that migrates itself and is dropped afterwards (slower, same start).
 */
const database: Effect.Effect<string, SqlError | PgMigrator.MigrationError, Scope.Scope> = Effect.gen(function* () {
  const template = templateName()
  if (template !== undefined) return databaseUrl(yield* pooledCopy(template))
  const name = uniqueName(isolatedPrefix)
  yield* Effect.acquireRelease(createDatabase(name), () => dropDatabase(name).pipe(Effect.orDie))
  const url = databaseUrl(name)
  yield* Migrations.run.pipe(Effect.provide(Layer.fresh(PgConnection.layerFromUrl(url, 1))))
  return url
})

/**
 * A pool over `database`: built once per `layer(...)` block (one database per test file) or once
 * per test with `Effect.provide(IsolatedPostgres.layer)`.
 */
const make = (
  maxConnections: number
): Layer.Layer<PgClient.PgClient | SqlClient, SqlError | PgMigrator.MigrationError> =>
  Layer.unwrap(Effect.map(database, (url) => PgConnection.layerFromUrl(url, maxConnections)))

/** The connection only (pool of 10). */
const layer: Layer.Layer<PgClient.PgClient | SqlClient, SqlError | PgMigrator.MigrationError> = make(10)

/** The whole store (`PgStore.layer`) over its own fresh database, with the connection still visible. */
const layerStore = PgStore.layer.pipe(Layer.provideMerge(layer))

export const IsolatedPostgres = { database, layer, layerStore, make } as const
