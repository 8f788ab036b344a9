/**
 * The no-configuration start: without DATABASE_URL the store runs on PGlite in `${DATA_DIR}/pg`,
 * migrated, over the same wire client, and what it stored is there again after a restart.
 */
import { assert, describe, it } from "@effect/vitest"
import { balanceMovement, type SignedUzs } from "@resale/core"
import { Ledger, Users } from "@resale/core/ports"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { EmbeddedPostgres } from "../src/EmbeddedPostgres.ts"
import { migrations } from "../src/Migrations.ts"
import { StoreLive } from "../src/StoreLive.ts"
import { identity, t0 } from "./contract/support.ts"

const embeddedIn = (dataDir: string) => StoreLive.layer({ databaseUrl: Option.none(), pgPoolMax: 10, dataDir })

describe("StoreLive without DATABASE_URL (embedded PGlite)", () => {
  it.effect(
    "persists under DATA_DIR/pg across a restart, migrated once",
    () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "resale-store-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))

        const first = yield* Effect.gen(function* () {
          const sql = yield* SqlClient
          const [{ version }] = (yield* sql<{ version: string }>`SELECT version()`) as [{ version: string }]
          const user = yield* Users.use((u) => u.upsertTelegram(identity(31337, "persistent"), t0))
          yield* Ledger.use((l) =>
            l.post(balanceMovement({ userId: user.id, amount: 4200 as SignedUzs, cause: "adjust", causeId: "persist" }))
          )
          // While it is open, nobody else may open the same directory.
          const second = yield* Effect.flip(
            Effect.scoped(Layer.build(Layer.fresh(EmbeddedPostgres.layer(join(dataDir, "pg")))))
          )
          assert.strictEqual(second._tag, "EmbeddedPostgresError")
          assert.include(second.message, "only one process may open it")
          return { version, userId: user.id }
        }).pipe(Effect.provide(embeddedIn(dataDir)))
        assert.include(first.version, "PGlite")
        assert.include(readdirSync(dataDir), "pg")
        assert.notInclude(readdirSync(dataDir), "pg.lock", "the lock goes with the database")

        const second = yield* Effect.gen(function* () {
          const sql = yield* SqlClient
          const migrations = yield* sql<{ n: bigint }>`SELECT count(*) AS n FROM effect_sql_migrations`
          const user = Option.getOrThrow(yield* Users.use((u) => u.findByTelegramId(31337)))
          return {
            migrations: Number(migrations[0]!.n),
            userId: user.id,
            balance: yield* Ledger.use((l) => l.balance(user.id))
          }
        }).pipe(Effect.provide(embeddedIn(dataDir)))
        assert.strictEqual(second.userId, first.userId)
        assert.strictEqual(second.balance, 4200)
        assert.strictEqual(second.migrations, (yield* migrations).length)
      }),
    120_000
  )
})
