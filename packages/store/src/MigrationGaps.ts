/**
 * Effect's migrator runs only the migrations numbered above the latest one applied. A migration that
 * landed below one already applied somewhere (out of number order) would be skipped there for good,
 * silently: this check finds such a gap before the migrator runs and stops the start with a clear line.
 */
import { Effect } from "effect"
import { MigrationError } from "effect/sql/Migrator"
import { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"

const gap = (missing: ReadonlyArray<string>, latest: string) =>
  new MigrationError({
    kind: "BadState",
    message:
      `migration ${missing.join(", ")} is not applied while ${latest} is: this build numbers a migration below ` +
      "one the database already ran, and the migrator would skip it. Renumber it above every applied " +
      "migration, or apply it by hand and record it in effect_sql_migrations"
  })

/** The known migrations (`<id>_<name>`) below the latest applied one that the database has not applied. */
export const missingBelowLatest = (
  known: ReadonlyArray<string>,
  applied: ReadonlyArray<number>
): ReadonlyArray<string> => {
  const latest = Math.max(0, ...applied)
  const done = new Set(applied)
  return known.filter((key) => {
    const id = Number.parseInt(key, 10)
    return id < latest && !done.has(id)
  })
}

/** Fails (`MigrationError`, kind `BadState`) when the connected database has a gap that the migrator would skip. */
export const checkMigrationGaps = (
  known: ReadonlyArray<string>
): Effect.Effect<void, MigrationError | SqlError, SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const [table] = yield* sql<{ present: boolean }>`SELECT to_regclass('effect_sql_migrations') IS NOT NULL AS present`
    if (table?.present !== true) return
    const rows = yield* sql<{ migration_id: number; name: string }>`
      SELECT migration_id, name FROM effect_sql_migrations ORDER BY migration_id`
    const missing = missingBelowLatest(
      known,
      rows.map((row) => Number(row.migration_id))
    )
    const last = rows.at(-1)
    if (missing.length > 0 && last !== undefined) {
      return yield* gap(missing, `${String(last.migration_id).padStart(4, "0")}_${last.name}`)
    }
  })
