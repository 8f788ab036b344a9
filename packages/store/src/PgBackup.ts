/**
 * Logical backups of the whole database, the same for the embedded PGlite and an external PostgreSQL:
 * every table of the schema read in ONE read-only repeatable-read transaction (a consistent snapshot
 * while the server keeps writing), written as JSON lines (a header naming the migration level, then per
 * table its name and its rows). A restore goes into an empty database at the same migration level (a
 * fresh data directory or a new database, migrated first): rows are inserted table by table in one
 * transaction, with foreign keys checked at commit, and the identity sequences moved past the restored ids.
 * The file holds everything (hashes of API keys, sessions, receipts): it is written owner-only.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import {
  closeSync,
  constants,
  fchmodSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync
} from "node:fs"
import { Migrations, migrations } from "./Migrations.ts"

export class BackupError extends Schema.TaggedError<BackupError>()("BackupError", {
  reason: Schema.Literals(["NotEmpty", "OtherVersion", "BadFile", "Io"]),
  message: Schema.String
}) {}

const FORMAT = "resale-backup"
const MIGRATIONS_TABLE = "effect_sql_migrations"
const BATCH = 500

interface Header {
  readonly format: typeof FORMAT
  readonly version: 1
  readonly created_at: string
  readonly migration: number
  readonly tables: ReadonlyArray<{ readonly name: string; readonly rows: number }>
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/** The application's tables (not the migrator's own), in name order. */
const tablesOf = (sql: SqlClient) =>
  Effect.map(
    sql<{ readonly name: string }>`
      SELECT tablename AS name FROM pg_tables
      WHERE schemaname = 'public' AND tablename <> ${MIGRATIONS_TABLE} ORDER BY tablename`,
    (rows) => rows.map((row) => row.name)
  )

const migrationLevel = (sql: SqlClient) =>
  Effect.map(sql<{ readonly id: number | null }>`SELECT max(migration_id) AS id FROM effect_sql_migrations`, (rows) =>
    Number(rows[0]?.id ?? 0)
  )

const io = (what: string) => (cause: unknown) =>
  new BackupError({ reason: "Io", message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}` })

/**
 * A new file only the owner can read, at `path`: whatever is there (a stale partial file of any mode,
 * a symbolic link) is unlinked, never reused or followed; O_EXCL | O_NOFOLLOW refuse anything planted
 * between the unlink and the open.
 */
const createOwnerOnly = (path: string): number => {
  try {
    unlinkSync(path)
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== "ENOENT") throw cause
  }
  const { O_CREAT, O_EXCL, O_NOFOLLOW, O_WRONLY } = constants
  const fd = openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
  // The umask may only have narrowed it: exactly 0600 whatever the umask.
  fchmodSync(fd, 0o600)
  return fd
}

/** Writes the backup to `file` (atomically: a temporary file renamed into place); the header is returned. */
export const writeBackup = Effect.fn("PgBackup.write")(function* (file: string) {
  const sql = yield* SqlClient
  const snapshot = Effect.gen(function* () {
    yield* sql.unsafe("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
    const migration = yield* migrationLevel(sql)
    const tables = yield* tablesOf(sql)
    const contents = yield* Effect.forEach(tables, (name) =>
      Effect.map(
        sql.unsafe<{ readonly row: string }>(`SELECT row_to_json(t)::text AS row FROM ${quote(name)} t`),
        (rows) => ({ name, rows: rows.map((r) => r.row) })
      )
    )
    return { migration, contents }
  })
  const { contents, migration } = yield* sql.withTransaction(snapshot)
  const header: Header = {
    format: FORMAT,
    version: 1,
    created_at: new Date().toISOString(),
    migration,
    tables: contents.map(({ name, rows }) => ({ name, rows: rows.length }))
  }
  const temporary = `${file}.partial`
  yield* Effect.try({
    try: () => {
      const fd = createOwnerOnly(temporary)
      try {
        try {
          writeSync(fd, `${JSON.stringify(header)}\n`)
          for (const { name, rows } of contents) {
            writeSync(fd, `${JSON.stringify({ table: name })}\n`)
            for (const row of rows) writeSync(fd, `${row}\n`)
          }
        } finally {
          closeSync(fd)
        }
        // rename replaces whatever is at `file` (a link included) with this 0600 file, never writing through it.
        renameSync(temporary, file)
      } catch (cause) {
        // Ours to remove: O_EXCL made it.
        rmSync(temporary, { force: true })
        throw cause
      }
    },
    catch: io(`cannot write ${file}`)
  })
  return header
})

const parse = (file: string) =>
  Effect.try({
    try: () => {
      const lines = readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "")
      const header = JSON.parse(lines[0] ?? "{}") as Header
      if (header.format !== FORMAT || header.version !== 1) throw new Error("not a resale backup")
      const tables = new Map<string, Array<string>>()
      let current: Array<string> | undefined
      for (const line of lines.slice(1)) {
        if (line.startsWith('{"table":')) {
          current = []
          tables.set((JSON.parse(line) as { table: string }).table, current)
        } else if (current !== undefined) current.push(line)
        else throw new Error("rows before a table")
      }
      for (const { name, rows } of header.tables) {
        if ((tables.get(name)?.length ?? -1) !== rows) throw new Error(`table ${name} is incomplete`)
      }
      return { header, tables }
    },
    catch: (cause) =>
      new BackupError({
        reason: "BadFile",
        message: `${file} is not a complete resale backup (${cause instanceof Error ? cause.message : String(cause)})`
      })
  })

/**
 * Restores `file` into the connected database, which must be empty: it is migrated first, must then
 * be at the backup's migration level, and every application table must have no row.
 */
export const restoreBackup = Effect.fn("PgBackup.restore")(function* (file: string) {
  const sql = yield* SqlClient
  const { header, tables } = yield* parse(file)
  yield* Migrations.run
  const level = yield* migrationLevel(sql)
  if (level !== header.migration) {
    const latest = Math.max(0, ...(yield* migrations).map(([id]) => id))
    return yield* new BackupError({
      reason: "OtherVersion",
      message:
        `the backup was taken at migration ${header.migration}, this version is at ${latest}: ` +
        `restore it with the version that took it, then upgrade`
    })
  }
  const present = yield* tablesOf(sql)
  const restore = Effect.gen(function* () {
    for (const name of present) {
      const [row] = yield* sql.unsafe<{ readonly any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${quote(name)}) AS any`)
      if (row?.any === true) {
        return yield* new BackupError({
          reason: "NotEmpty",
          message: `table ${name} has rows: restore into a fresh data directory or an empty database`
        })
      }
    }
    // Foreign keys (some refer to each other) are checked once every row is in.
    const foreignKeys = yield* sql<{ readonly table: string; readonly name: string }>`
      SELECT conrelid::regclass::text AS table, conname AS name FROM pg_constraint
      WHERE contype = 'f' AND connamespace = 'public'::regnamespace AND NOT condeferrable`
    for (const fk of foreignKeys) {
      yield* sql.unsafe(`ALTER TABLE ${fk.table} ALTER CONSTRAINT ${quote(fk.name)} DEFERRABLE INITIALLY DEFERRED`)
    }
    for (const name of header.tables.map((t) => t.name)) {
      if (!present.includes(name))
        return yield* new BackupError({ reason: "OtherVersion", message: `table ${name} does not exist here` })
      const rows = tables.get(name) ?? []
      for (let at = 0; at < rows.length; at += BATCH) {
        const batch = `[${rows.slice(at, at + BATCH).join(",")}]`
        yield* sql.unsafe(
          `INSERT INTO ${quote(name)} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::${quote(name)}, $1::json)`,
          [batch]
        )
      }
    }
    yield* sql.unsafe("SET CONSTRAINTS ALL IMMEDIATE")
    for (const fk of foreignKeys) {
      yield* sql.unsafe(`ALTER TABLE ${fk.table} ALTER CONSTRAINT ${quote(fk.name)} NOT DEFERRABLE`)
    }
    // Identity columns continue after the restored ids.
    const identities = yield* sql<{ readonly table: string; readonly column: string }>`
      SELECT table_name AS table, column_name AS column FROM information_schema.columns
      WHERE table_schema = 'public' AND is_identity = 'YES'`
    for (const { column, table } of identities) {
      yield* sql.unsafe(
        `SELECT setval(pg_get_serial_sequence('${quote(table)}', '${column}'), coalesce(max(${quote(column)}), 0) + 1, false) FROM ${quote(table)}`
      )
    }
  })
  yield* sql.withTransaction(restore)
  return header
})
