/**
 * Migrations are safe to deploy: effect's migrator runs only ids above the latest applied, so a
 * migration landed below one that already ran somewhere would be skipped there for good.
 * - At start, a database lacking a migration below its latest applied one stops with a clear error.
 * - In `npm test`, a migration added after another must carry a higher id (checked on git history).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { execFileSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { missingBelowLatest } from "../src/MigrationGaps.ts"
import { Migrations, migrationRecord } from "../src/Migrations.ts"
import { beforeMigration } from "./support/BeforeMigration.ts"

const folder = join(import.meta.dirname, "../src/migrations")
// Landed on the mainline out of number order before this check existed; every database has long run all of them.
const grandfathered = new Set([
  "0006_order_attention.ts",
  "0009_wallet_order_ids.ts",
  "0010_direct_rate_windows.ts",
  "0012_used_logins.ts",
  "0013_account_caps_receipt_hashes.ts"
])

/**
 * Migration files in the order they landed: the mainline's history (first parents, a merge counted
 * when it lands, not when its branch's commits were written), then files not yet committed.
 */
const filesInLandingOrder = (): ReadonlyArray<string> => {
  const args = ["log", "--first-parent", "-m", "--diff-filter=A", "--reverse", "--format=", "--name-only", "--", "."]
  const log = execFileSync("git", args, {
    cwd: folder,
    encoding: "utf8"
  })
  const landed = log
    .split("\n")
    .filter((line) => line.endsWith(".ts"))
    .map((path) => path.slice(path.lastIndexOf("/") + 1))
  const present = readdirSync(folder).filter((file) => /^\d{4}_.+\.ts$/.test(file))
  const known = landed.filter((file) => present.includes(file))
  return [...new Set([...known, ...present.filter((file) => !known.includes(file)).sort()])]
}

describe("migration order", () => {
  it("every migration added later has an id above every migration added before it", () => {
    const order = filesInLandingOrder()
    assert.isAtLeast(order.length, Object.keys(migrationRecord).length)
    let highest = 0
    const late: Array<string> = []
    for (const file of order) {
      const id = Number.parseInt(file, 10)
      if (id <= highest && !grandfathered.has(file)) late.push(`${file} (after ${String(highest).padStart(4, "0")})`)
      highest = Math.max(highest, id)
    }
    assert.deepStrictEqual(late, [], "renumber these migrations above every existing one")
  })

  it("every migration file is registered once, with a unique id", () => {
    const files = readdirSync(folder)
      .filter((file) => /^\d{4}_.+\.ts$/.test(file))
      .map((file) => file.replace(/\.ts$/, ""))
    assert.deepStrictEqual(Object.keys(migrationRecord), files.sort())
    const ids = files.map((file) => file.slice(0, 4))
    assert.strictEqual(new Set(ids).size, ids.length)
  })

  it("finds the known migrations below the latest applied one that are missing", () => {
    const known = ["0001_a", "0002_b", "0005_c", "0009_d", "0010_e"]
    assert.deepStrictEqual(missingBelowLatest(known, [1, 2, 9]), ["0005_c"])
    assert.deepStrictEqual(missingBelowLatest(known, [1, 2, 5]), [])
    assert.deepStrictEqual(missingBelowLatest(known, []), [])
  })

  it.effect(
    "a database that lacks a migration below its latest applied one stops the start with a clear line",
    () =>
      beforeMigration("9999", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient
          // As a database migrated by a build that had 0009 but not yet 0006 would be.
          yield* sql`DELETE FROM effect_sql_migrations WHERE migration_id = 6`
          const error = yield* Effect.flip(Migrations.run)
          assert.strictEqual(error._tag, "MigrationError")
          const latest = Object.keys(migrationRecord).at(-1)!
          assert.include(error.message, `migration 0006_order_attention is not applied while ${latest} is`)
          assert.include(error.message, "Renumber it above every applied migration")
          // Nothing ran: the gap is still there, and a repaired record lets the start through.
          yield* sql`INSERT INTO effect_sql_migrations (migration_id, name) VALUES (6, 'order_attention')`
          assert.deepStrictEqual(yield* Migrations.run, [])
        })
      ),
    60_000
  )
})
