/**
 * `resale db backup` / `resale db restore`: a backup of an external PostgreSQL restored into a fresh
 * embedded data directory (and back into an empty external database) holds every user, balance,
 * ledger entry, order and top-up, and the ids go on after the restored ones. A restore refuses a
 * database that already has rows and a file that is not a complete backup. A backup is always a new
 * owner-only file: a stale `<file>.partial` or a link planted there is never reused or followed.
 */
import { assert, layer } from "@effect/vitest"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  cardTopup,
  CliDatabase,
  CliTestLayer,
  fund,
  json,
  receiptTopup,
  runResale,
  seedUser
} from "./support/CliHarness.ts"
import { runInProcess } from "./support/InProcessCli.ts"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "resale-backup-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

const emptyDatabase = Effect.acquireRelease(
  Effect.gen(function* () {
    const name = uniqueName("backup_target")
    yield* createDatabase(name)
    return databaseUrl(name)
  }),
  (url) => dropDatabase(new URL(url).pathname.slice(1)).pipe(Effect.orDie)
).pipe(Effect.orDie)

/** `resale <args>` in this process (see InProcessCli.ts): the same program entry as the launcher, without a Node start-up. */
const resale = (args: ReadonlyArray<string>, env: Record<string, string | undefined>) =>
  Effect.promise(() => runInProcess(args, env))

/** What an operator checks after a restore: users with balances, orders, top-ups and one user's ledger. */
const snapshot = (env: Record<string, string | undefined>, user: string) =>
  Effect.gen(function* () {
    const users = json(yield* resale(["users", "list", "--limit", "100", "--json"], env))
    const orders = json(yield* resale(["orders", "list", "--limit", "100", "--json"], env))
    const topups = json(yield* resale(["topups", "list", "--limit", "100", "--json"], env))
    const shown = json(yield* resale(["users", "show", user, "--entries", "100", "--json"], env))
    return { users, orders, topups, shown }
  })

layer(CliTestLayer, { timeout: "240 seconds", excludeTestServices: true })("resale db backup / restore", (it) => {
  it.effect(
    "external database -> backup -> fresh embedded data directory and empty external database: every balance and order",
    () =>
      Effect.gen(function* () {
        const ann = yield* seedUser("ann_backup")
        const bob = yield* seedUser("bob_backup")
        yield* fund(ann.id, 500_000)
        yield* fund(bob.id, 400_000)
        yield* OrderService.use((o) => o.create(ann.id, { kind: "stars", recipient: "friend_one", stars: 100 })).pipe(
          Effect.orDie
        )
        const failed = yield* OrderService.use((o) =>
          o.create(bob.id, { kind: "premium", recipient: "friend_two", months: 3 })
        ).pipe(Effect.orDie)
        yield* OrderService.use((o) => o.fail(failed.id, "marketplace refused")).pipe(Effect.orDie)
        yield* receiptTopup(ann.id, 25_000)
        yield* cardTopup(bob.id, 40_000)

        const source = yield* CliDatabase
        const sourceEnv = { DATABASE_URL: source.url, DATA_DIR: source.dataDir }
        const dir = yield* tempDir
        const file = join(dir, "resale.backup")
        // The backup by the real launcher; everything else in process.
        const made = yield* runResale(["db", "backup", file, "--json"], sourceEnv)
        assert.strictEqual(made.code, 0, made.stderr)
        assert.strictEqual(statSync(file).mode & 0o777, 0o600)
        const before = yield* snapshot(sourceEnv, "@ann_backup")
        assert.isAtLeast(before.orders.orders.length, 2)

        // A fresh embedded data directory.
        const embeddedEnv = { DATABASE_URL: undefined, DATA_DIR: join(dir, "fresh"), PORT: "9" }
        const restored = yield* resale(["db", "restore", file, "--json"], embeddedEnv)
        assert.strictEqual(restored.code, 0, restored.stderr)
        assert.deepStrictEqual(yield* snapshot(embeddedEnv, "@ann_backup"), before)
        // New rows get new ids after the restored ones.
        const carol = yield* resale(
          ["users", "adjust", "@bob_backup", "--amount", "1000", "--reason", "after restore", "--yes", "--json"],
          embeddedEnv
        )
        assert.strictEqual(carol.code, 0, carol.stderr)

        // An empty external database.
        const url = yield* emptyDatabase
        const externalEnv = { DATABASE_URL: url, DATA_DIR: dir }
        const again = yield* resale(["db", "restore", file], externalEnv)
        assert.strictEqual(again.code, 0, again.stderr)
        assert.deepStrictEqual(yield* snapshot(externalEnv, "@ann_backup"), before)

        // Not twice, and not from a damaged file.
        const twice = yield* resale(["db", "restore", file], externalEnv)
        assert.strictEqual(twice.code, 1)
        assert.include(twice.stderr, "restore into a fresh data directory or an empty database")
        const damaged = join(dir, "damaged.backup")
        writeFileSync(
          damaged,
          '{"format":"resale-backup","version":1,"migration":1,"tables":[{"name":"users","rows":3}]}\n'
        )
        const bad = yield* resale(["db", "restore", damaged], {
          DATABASE_URL: undefined,
          DATA_DIR: join(dir, "other"),
          PORT: "9"
        })
        assert.strictEqual(bad.code, 1)
        assert.include(bad.stderr, "is not a complete resale backup")
      }),
    300_000
  )

  it.effect(
    "a stale or planted <file>.partial is never reused or followed: the backup is a new 0600 file",
    () =>
      Effect.gen(function* () {
        const source = yield* CliDatabase
        const env = { DATABASE_URL: source.url, DATA_DIR: source.dataDir }
        const dir = yield* tempDir
        const file = join(dir, "nightly.backup")
        const partial = `${file}.partial`

        // A crashed run's partial file, readable by everyone, and an old world-readable backup.
        writeFileSync(partial, "stale", { mode: 0o644 })
        chmodSync(partial, 0o644)
        writeFileSync(file, "old", { mode: 0o644 })
        chmodSync(file, 0o644)
        const first = yield* resale(["db", "backup", file, "--json"], env)
        assert.strictEqual(first.code, 0, first.stderr)
        assert.strictEqual(statSync(file).mode & 0o777, 0o600)
        assert.isFalse(existsSync(partial))
        assert.include(readFileSync(file, "utf8"), '"format":"resale-backup"')

        // A link planted where the partial file goes: the target is neither written nor re-moded.
        const elsewhere = join(dir, "elsewhere")
        writeFileSync(elsewhere, "someone else's file", { mode: 0o644 })
        chmodSync(elsewhere, 0o644)
        symlinkSync(elsewhere, partial)
        const second = yield* resale(["db", "backup", file, "--json"], env)
        assert.strictEqual(second.code, 0, second.stderr)
        assert.isFalse(lstatSync(file).isSymbolicLink())
        assert.strictEqual(statSync(file).mode & 0o777, 0o600)
        assert.include(readFileSync(file, "utf8"), '"format":"resale-backup"')
        assert.strictEqual(readFileSync(elsewhere, "utf8"), "someone else's file")
        assert.strictEqual(statSync(elsewhere).mode & 0o777, 0o644)
        assert.isFalse(existsSync(partial))
      }),
    120_000
  )
})
