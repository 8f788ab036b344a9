/**
 * StoreLive with DATABASE_URL: that server, migrated on start (here an empty database, so every
 * migration runs), the pool size from PG_POOL_MAX.
 */
import { assert, describe, it } from "@effect/vitest"
import { Users } from "@resale/core/ports"
import { Effect, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { migrations } from "../src/Migrations.ts"
import { StoreLive } from "../src/StoreLive.ts"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "../src/testing/TestDatabase.ts"
import { identity, t0 } from "./contract/support.ts"

describe("StoreLive with DATABASE_URL", () => {
  it.effect(
    "connects to that server and migrates it before the ports are used",
    () =>
      Effect.gen(function* () {
        const name = uniqueName("resale_t")
        yield* Effect.acquireRelease(createDatabase(name), () => Effect.orDie(dropDatabase(name)))
        const settings = { databaseUrl: Option.some(Redacted.make(databaseUrl(name))), pgPoolMax: 3, dataDir: ".data" }
        const seen = yield* Effect.gen(function* () {
          const sql = yield* SqlClient
          const user = yield* Users.use((u) => u.upsertTelegram(identity(5, "live"), t0))
          const [row] = yield* sql<{ db: string; version: string; migrations: bigint }>`
          SELECT current_database() AS db, version() AS version, (SELECT count(*) FROM effect_sql_migrations) AS migrations`
          return { ...row!, userId: user.id }
        }).pipe(Effect.provide(StoreLive.layer(settings)))
        assert.strictEqual(seen.db, name)
        assert.notInclude(seen.version, "PGlite")
        assert.strictEqual(Number(seen.migrations), (yield* migrations).length)
        assert.strictEqual(seen.userId, 1)
      }),
    60_000
  )
})
