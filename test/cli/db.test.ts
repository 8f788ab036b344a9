import { assert, layer } from "@effect/vitest"
import { isolatedPrefix } from "@resale/store/testing/IsolatedPostgres.ts"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cli, CliTestLayer, json, runResale } from "./support/CliHarness.ts"
import { runInProcess } from "./support/InProcessCli.ts"

/** An empty database (no migrations), dropped after the test. */
const emptyDatabase = Effect.acquireRelease(
  Effect.gen(function* () {
    const name = uniqueName(isolatedPrefix)
    yield* createDatabase(name)
    return name
  }),
  (name) => dropDatabase(name).pipe(Effect.orDie)
).pipe(Effect.orDie)

const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "resale-cli-embedded-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

// A port nothing listens on: no server (and no faucet) is found.
const QUIET_PORT = "9"

/** `resale <args>` in this process with exactly `env` over the inherited environment (see InProcessCli.ts). */
const inProcess = (args: ReadonlyArray<string>, env: Record<string, string | undefined>) =>
  Effect.promise(() => runInProcess(args, env))

layer(CliTestLayer, { timeout: "120 seconds", excludeTestServices: true })(
  "resale db (in process and real launcher, real PostgreSQL)",
  (it) => {
    it.effect("status on a migrated database: every migration applied, nothing pending", () =>
      Effect.gen(function* () {
        const run = yield* cli(["db", "status", "--json"])
        assert.strictEqual(run.code, 0, run.stderr)
        const body = json(run)
        assert.strictEqual(body.pending, 0)
        assert.isAtLeast(body.migrations.length, 1)
        assert.isTrue(body.migrations.every((m: { applied_at: string | null }) => m.applied_at !== null))
        assert.match(body.database, /^PostgreSQL at 127\.0\.0\.1:5432\/resale_t/)

        const text = yield* cli(["db", "status"])
        assert.match(text.stdout, /^\s*1\s+foundation\s+\d{4}-\d\d-\d\d /m)
        assert.include(text.stdout, "Up to date.")
      })
    )

    it.effect("migrate brings an empty database up to date, then has nothing to do; commands work afterwards", () =>
      Effect.gen(function* () {
        const name = yield* emptyDatabase
        const env = { DATABASE_URL: databaseUrl(name) }
        const before = json(yield* inProcess(["db", "status", "--json"], env))
        assert.strictEqual(before.pending, before.migrations.length)

        const unmigrated = yield* inProcess(["pricing", "show"], env)
        assert.strictEqual(unmigrated.code, 1)
        assert.include(unmigrated.stderr, "resale db migrate")

        const migrated = yield* inProcess(["db", "migrate", "--json"], env)
        assert.strictEqual(migrated.code, 0, migrated.stderr)
        assert.deepStrictEqual(
          json(migrated).applied.map((m: { name: string }) => m.name),
          before.migrations.map((m: { name: string }) => m.name)
        )
        const again = json(yield* inProcess(["db", "migrate", "--json"], env))
        assert.deepStrictEqual(again.applied, [])
        assert.strictEqual(json(yield* inProcess(["db", "status", "--json"], env)).pending, 0)
        assert.strictEqual((yield* inProcess(["pricing", "show"], env)).code, 0)
      })
    )

    it.effect("an unreachable DATABASE_URL fails with exit 1 and never prints its password", () =>
      Effect.gen(function* () {
        const run = yield* runResale(["topups", "list"], {
          DATABASE_URL: "postgres://operator:Sup3rSecretPw@127.0.0.1:9/resale"
        })
        assert.strictEqual(run.code, 1)
        assert.include(run.stderr, "error:")
        assert.notInclude(run.stderr + run.stdout, "Sup3rSecretPw")
      })
    )

    it.effect("without DATABASE_URL the embedded database in DATA_DIR is used, and kept between commands", () =>
      Effect.gen(function* () {
        const dataDir = yield* tempDir
        const env = { DATABASE_URL: undefined, DATA_DIR: dataDir, PORT: QUIET_PORT }
        const migrated = yield* inProcess(["db", "migrate"], env)
        assert.strictEqual(migrated.code, 0, migrated.stderr)
        assert.include(migrated.stdout, `embedded PostgreSQL in ${join(dataDir, "pg")}`)
        const set = yield* inProcess(["pricing", "set", "--star", "321", "--yes"], env)
        assert.strictEqual(set.code, 0, set.stderr)
        // A separate process (the real launcher) finds what the commands before it wrote.
        const shown = json(yield* runResale(["pricing", "show", "--json"], env))
        assert.strictEqual(shown.star_price_uzs, 321)
        assert.isFalse(existsSync(join(dataDir, "resale-cli.lock")))
      })
    )
  }
)
