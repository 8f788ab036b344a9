/**
 * Tests of a migration over rows the store wrote before it: a database of the test's own, migrated up
 * to (not including) `migration`, the body run against it; the database is dropped with the test's
 * scope. The body receives the migrations applied so far and calls `Migrations.run` itself.
 */
import { NodeServices } from "@effect/platform-node"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { migrationRecord } from "../../src/Migrations.ts"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "../../src/testing/TestDatabase.ts"

export const beforeMigration = <A, E, R>(
  migration: string,
  body: (applied: ReadonlyArray<readonly [id: number, name: string]>) => Effect.Effect<A, E, R>
) =>
  Effect.gen(function* () {
    const name = uniqueName("resale_t")
    yield* Effect.acquireRelease(createDatabase(name), () => Effect.orDie(dropDatabase(name)))
    const client = Layer.fresh(PgClient.layer({ url: Redacted.make(databaseUrl(name)), maxConnections: 1 }))
    const loader = PgMigrator.fromRecord(
      Object.fromEntries(Object.entries(migrationRecord).filter(([key]) => key < migration))
    )
    return yield* PgMigrator.run({ loader }).pipe(
      Effect.provide(NodeServices.layer),
      Effect.flatMap(body),
      Effect.provide(client)
    )
  })
