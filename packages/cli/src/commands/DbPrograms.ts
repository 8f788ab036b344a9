// The `db` programs, loaded only when a `db` command runs (they import the store's migrator).
import { EmbeddedPostgres } from "@resale/store/EmbeddedPostgres.ts"
import { Migrations, migrations } from "@resale/store/Migrations.ts"
import { Effect, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { storeSettings } from "../CliStore.ts"
import { output, table } from "../Output.ts"

/** Where the commands point, for people: host, port and database name, never credentials. */
export const target = Effect.map(storeSettings, (settings) =>
  Option.match(settings.databaseUrl, {
    onNone: () => `embedded PostgreSQL in ${EmbeddedPostgres.dataDirOf(settings.dataDir)}`,
    onSome: (url) => {
      try {
        const parsed = new URL(Redacted.value(url))
        return `PostgreSQL at ${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname} (DATABASE_URL)`
      } catch {
        return "PostgreSQL at DATABASE_URL"
      }
    }
  })
)

interface AppliedRow {
  readonly migration_id: number
  readonly created_at: Date
}

/** The migrations the store knows, each with when it ran here (the migrator's own table, read as is). */
export const status = Effect.gen(function* () {
  const sql = yield* SqlClient
  const known = yield* migrations
  const [registry] = yield* sql<{
    readonly exists: boolean
  }>`SELECT to_regclass('effect_sql_migrations') IS NOT NULL AS exists`
  const applied =
    registry?.exists === true
      ? yield* sql<AppliedRow>`SELECT migration_id, created_at FROM effect_sql_migrations ORDER BY migration_id`
      : []
  const ranAt = new Map(applied.map((row) => [Number(row.migration_id), row.created_at]))
  const rows = known.map(([id, name]) => ({ id, name, appliedAt: ranAt.get(id) ?? null }))
  const pending = rows.filter((row) => row.appliedAt === null).length
  const unknown = applied.filter((row) => !known.some(([id]) => id === Number(row.migration_id))).length
  const where = yield* target
  const summary = [
    `Database: ${where}`,
    pending === 0 ? "Up to date." : `${pending} pending: run \`resale db migrate\`.`,
    ...(unknown === 0
      ? []
      : [`${unknown} applied migration(s) unknown to this version of the code: is it older than the database?`])
  ].join("\n")
  return output(
    { database: where, migrations: rows, pending, unknownApplied: unknown },
    `${table(
      ["ID", "NAME", "APPLIED"],
      rows.map((r) => [r.id, r.name, r.appliedAt ?? "pending"])
    )}\n\n${summary}`
  )
})

export const migrate = Effect.gen(function* () {
  const ran = yield* Migrations.run
  const where = yield* target
  const rows = ran.map(([id, name]) => ({ id, name }))
  return output(
    { database: where, applied: rows },
    rows.length === 0
      ? `Database: ${where}\nNothing to do: every migration has run.`
      : `Database: ${where}\nApplied ${rows.length} migration(s): ${rows.map((r) => `${r.id} ${r.name}`).join(", ")}.`
  )
})
