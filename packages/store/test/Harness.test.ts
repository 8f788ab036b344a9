/**
 * The test harness other packages rely on: a database of their own per use, migrated, dropped after;
 * migrations that can run again and from several processes at once.
 */
import { assert, describe, it } from "@effect/vitest"
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

const client = (name: string) => Layer.fresh(PgClient.layer({ url: Redacted.make(databaseUrl(name)), maxConnections: 1 }))

describe("test harness", () => {
  it.effect("IsolatedPostgres: a fresh migrated database per use, dropped when its scope closes", () =>
    Effect.gen(function*() {
      const names: Array<string> = []
      for (let n = 0; n < 2; n++) {
        const scope = yield* Scope.make()
        const context = yield* Layer.buildWithScope(IsolatedPostgres.layerStore, scope)
        const name = yield* Effect.gen(function*() {
          const sql = yield* SqlClient
          const [row] = yield* sql<{ db: string; users: bigint; migrations: bigint }>`
            SELECT current_database() AS db, (SELECT count(*) FROM users) AS users,
                   (SELECT count(*) FROM effect_sql_migrations) AS migrations`
          assert.strictEqual(Number(row!.users), 0)
          assert.strictEqual(Number(row!.migrations), (yield* migrations).length)
          yield* sql`INSERT INTO users (telegram_id, created_at, updated_at) VALUES (1, now(), now())`
          return row!.db
        }).pipe(Effect.provideContext(context))
        assert.isTrue(yield* exists(name))
        yield* Scope.close(scope, Exit.void)
        assert.isFalse(yield* exists(name))
        names.push(name)
      }
      assert.notStrictEqual(names[0], names[1])
    }), 60_000)

  it.effect("migrations run once, and two processes migrating one new database at once do it once", () =>
    Effect.gen(function*() {
      const name = uniqueName("resale_t")
      yield* Effect.acquireRelease(createDatabase(name), () => Effect.orDie(dropDatabase(name)))
      const runs = yield* Effect.all(
        [Migrations.run.pipe(Effect.provide(client(name))), Migrations.run.pipe(Effect.provide(client(name)))],
        { concurrency: 2 }
      )
      const applied = runs.map((r) => r.length).sort()
      assert.deepStrictEqual(applied, [0, (yield* migrations).length])
      assert.strictEqual((yield* Migrations.run.pipe(Effect.provide(client(name)))).length, 0)
    }), 60_000)
})
