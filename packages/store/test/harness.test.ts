/**
 * The test harness other packages rely on: an empty, migrated database of their own per use;
 * migrations that can run again and from several processes at once.
 */
import { assert, describe, it } from "@effect/vitest"
import { inject } from "vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { migrations, Migrations } from "../src/Migrations.ts"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import { createDatabase, databaseUrl, dropDatabase, uniqueName, withAdmin } from "../src/testing/TestDatabase.ts"

const exists = (name: string) =>
  withAdmin((sql) => sql<{ n: bigint }>`SELECT count(*) AS n FROM pg_database WHERE datname = ${name}`).pipe(
    Effect.map((rows) => Number(rows[0]!.n) === 1)
  )

const client = (name: string) =>
  Layer.fresh(PgClient.layer({ url: Redacted.make(databaseUrl(name)), maxConnections: 1 }))

describe("test harness", () => {
  it.effect(
    "IsolatedPostgres: each use starts on an empty, migrated database; a copy whose schema changed is dropped",
    () =>
      Effect.gen(function* () {
        // One use: what it sees, then it writes a row (the users id sequence moves) and maybe alters the schema.
        const use = (alter: boolean) =>
          Effect.gen(function* () {
            const scope = yield* Scope.make()
            const context = yield* Layer.buildWithScope(IsolatedPostgres.layerStore, scope)
            const seen = yield* Effect.gen(function* () {
              const sql = yield* SqlClient
              const [row] = yield* sql<{ db: string; users: bigint; migrations: bigint }>`
              SELECT current_database() AS db, (SELECT count(*) FROM users) AS users,
                     (SELECT count(*) FROM effect_sql_migrations) AS migrations`
              const [user] = yield* sql<{ id: bigint }>`
              INSERT INTO users (telegram_id, created_at, updated_at) VALUES (1, now(), now()) RETURNING id`
              if (alter) yield* sql`ALTER TABLE users ADD COLUMN left_behind text`
              return {
                db: row!.db,
                users: Number(row!.users),
                migrations: Number(row!.migrations),
                firstId: Number(user!.id)
              }
            }).pipe(Effect.provideContext(context))
            assert.isTrue(yield* exists(seen.db))
            yield* Scope.close(scope, Exit.void)
            return seen
          })
        const all = (yield* migrations).length
        const first = yield* use(false)
        const second = yield* use(true)
        const third = yield* use(false)
        for (const seen of [first, second, third]) {
          assert.deepStrictEqual([seen.users, seen.migrations, seen.firstId], [0, all, 1])
        }
        // With the run's template, an emptied copy is used again; the altered one is gone.
        if (inject("resaleTemplateDatabase") !== undefined) assert.strictEqual(second.db, first.db)
        assert.isFalse(yield* exists(second.db))
        assert.notStrictEqual(third.db, second.db)
      }),
    60_000
  )

  it.effect(
    "migrations run once, and two processes migrating one new database at once do it once",
    () =>
      Effect.gen(function* () {
        const name = uniqueName("resale_t")
        yield* Effect.acquireRelease(createDatabase(name), () => Effect.orDie(dropDatabase(name)))
        const runs = yield* Effect.all(
          [Migrations.run.pipe(Effect.provide(client(name))), Migrations.run.pipe(Effect.provide(client(name)))],
          { concurrency: 2 }
        )
        const applied = runs.map((r) => r.length).sort()
        assert.deepStrictEqual(applied, [0, (yield* migrations).length])
        assert.strictEqual((yield* Migrations.run.pipe(Effect.provide(client(name)))).length, 0)
      }),
    60_000
  )
})
