import type { Command } from "commander"
import { CliConnection } from "../Layers.ts"
import { type CommonOptions, runCommand } from "../Runner.ts"
import { withJson } from "./Common.ts"

const programs = () => import("./DbPrograms.ts")

export const registerDb = (program: Command): void => {
  const db = program.command("db").description("database schema")

  withJson(db.command("migrate").description("apply pending migrations (safe to repeat; the migrator locks)"))
    .action((options: CommonOptions) => programs().then((p) => runCommand(CliConnection, p.migrate, options)))

  withJson(db.command("status").description("which migrations have run and which are pending"))
    .action((options: CommonOptions) => programs().then((p) => runCommand(CliConnection, p.status, options)))
}
