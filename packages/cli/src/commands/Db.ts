import type { Command } from "commander"
import { CliConnection } from "../Layers.ts"
import { type CommonOptions, runCommand } from "../Runner.ts"
import { withJson } from "./Common.ts"

const programs = () => import("./DbPrograms.ts")
const backups = () => import("./BackupPrograms.ts")

export const registerDb = (program: Command): void => {
  const db = program.command("db").description("database schema")

  withJson(db.command("migrate").description("apply pending migrations (safe to repeat; the migrator locks)")).action(
    (options: CommonOptions) => programs().then((p) => runCommand(CliConnection, p.migrate, options))
  )

  withJson(db.command("status").description("which migrations have run and which are pending")).action(
    (options: CommonOptions) => programs().then((p) => runCommand(CliConnection, p.status, options))
  )

  withJson(
    db
      .command("backup")
      .argument("<file>", "where to write the backup (owner-only permissions)")
      .description("consistent backup of every table, also while the server runs (embedded or DATABASE_URL)")
  ).action((file: string, options: CommonOptions) =>
    backups().then((p) => runCommand(CliConnection, p.backup(file), options))
  )

  withJson(
    db
      .command("restore")
      .argument("<file>", "a file written by `resale db backup`")
      .description(
        "restore a backup into an empty database (a fresh DATA_DIR, or a new DATABASE_URL); migrates it first"
      )
  ).action((file: string, options: CommonOptions) =>
    backups().then((p) => runCommand(CliConnection, p.restore(file), options))
  )
}
