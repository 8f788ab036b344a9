import { Accounts } from "@resale/core/accounts/Accounts.ts"
import type { User } from "@resale/core/accounts/User.ts"
import { type Command, Option } from "commander"
import { Effect } from "effect"
import { type UserRef, wholeNumber } from "../Args.ts"

/** Operators see every record: the same viewer the web panel's admin session uses. */
export const operator = { kind: "operator" as const }

/** `--json` on a leaf command (every leaf has it, so scripts never parse tables). */
export const withJson = (command: Command): Command => command.option("--json", "print the result as JSON on stdout")

/** `--yes` on a command that asks before it changes money or access. */
export const withYes = (command: Command): Command =>
  command.option("-y, --yes", "do not ask for confirmation (required when stdin is not a terminal)")

/** `--limit` / `--offset` on list commands (the services clamp to 100 rows per page). */
export const withPage = (command: Command): Command =>
  command
    .addOption(new Option("--limit <n>", "rows per page, 1-100").argParser(wholeNumber("--limit", 1, 100)).default(20))
    .addOption(new Option("--offset <n>", "rows to skip").argParser(wholeNumber("--offset", 0)).default(0))

export interface PageOptions {
  readonly limit: number
  readonly offset: number
}

export const pageOf = (options: PageOptions) => ({ offset: options.offset, limit: options.limit })

/** A choice option whose allowed values are listed in `--help` and checked before anything runs. */
export const choiceOption = (flags: string, description: string, values: ReadonlyArray<string>): Option =>
  new Option(flags, description).choices(values)

/** The user an operator named by id or `@username`. */
export const resolveUser = Effect.fn("cli.resolveUser")(function* (ref: UserRef) {
  const accounts = yield* Accounts
  return ref.kind === "id" ? yield* accounts.find(ref.id) : yield* accounts.findByUsername(ref.username)
})

/** `#12 @alice` or `#12` for prompts and tables. */
export const userLabel = (user: Pick<User, "id" | "username">): string =>
  user.username === null ? `#${user.id}` : `#${user.id} @${user.username}`

/** A short description of the optional user filter for list headers. */
export const resolveOptionalUser = (ref: UserRef | undefined) =>
  ref === undefined ? Effect.succeed(undefined) : Effect.map(resolveUser(ref), (user) => user.id)
