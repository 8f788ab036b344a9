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

/** The migrations below `migration`, for a test of an earlier one that the later ones would change again. */
export const migrateBefore = (migration: string) =>
  PgMigrator.run({
    loader: PgMigrator.fromRecord(
      Object.fromEntries(Object.entries(migrationRecord).filter(([key]) => key < migration))
    )
  }).pipe(Effect.provide(NodeServices.layer))

export const beforeMigration = <A, E, R>(
  migration: string,
  body: (applied: ReadonlyArray<readonly [id: number, name: string]>) => Effect.Effect<A, E, R>
) =>
  Effect.gen(function* () {
    const name = uniqueName("resale_t")
    yield* Effect.acquireRelease(createDatabase(name), () => Effect.orDie(dropDatabase(name)))
    const client = Layer.fresh(PgClient.layer({ url: Redacted.make(databaseUrl(name)), maxConnections: 1 }))
    return yield* migrateBefore(migration).pipe(Effect.flatMap(body), Effect.provide(client))
  })
