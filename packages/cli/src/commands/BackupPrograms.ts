// `db backup` / `db restore`, loaded only when they run (see `@resale/store/PgBackup.ts` for the format).
import { BackupError, restoreBackup, writeBackup } from "@resale/store/PgBackup.ts"
import { Effect } from "effect"
import { resolve } from "node:path"
import { CliCommandError } from "../CliErrors.ts"
import { output, table } from "../Output.ts"
import { target } from "./DbPrograms.ts"

// A backup's own failures become the operator's sentence; database errors pass on to the usual report.
const asCommandError = <E>(error: E) =>
  error instanceof BackupError
    ? new CliCommandError({ reason: error.reason === "Io" ? "Unavailable" : "Invalid", message: error.message })
    : error

const summary = (tables: ReadonlyArray<{ readonly name: string; readonly rows: number }>) =>
  table(
    ["TABLE", "ROWS"],
    tables.filter((t) => t.rows > 0).map((t) => [t.name, t.rows])
  )

export const backup = (file: string) =>
  Effect.gen(function* () {
    const path = resolve(file)
    const header = yield* writeBackup(path).pipe(Effect.mapError(asCommandError))
    const where = yield* target
    return output(
      { file: path, database: where, createdAt: header.created_at, migration: header.migration, tables: header.tables },
      `${summary(header.tables)}\n\nBacked up ${where} to ${path} (migration ${header.migration}).`
    )
  })

export const restore = (file: string) =>
  Effect.gen(function* () {
    const path = resolve(file)
    const header = yield* restoreBackup(path).pipe(Effect.mapError(asCommandError))
    const where = yield* target
    return output(
      {
        file: path,
        database: where,
        backupCreatedAt: header.created_at,
        migration: header.migration,
        tables: header.tables
      },
      `${summary(header.tables)}\n\nRestored ${path} (taken ${header.created_at}) into ${where}.`
    )
  })
