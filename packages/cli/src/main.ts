import { CommanderError } from "commander"
import { makeCli } from "./Cli.ts"

/**
 * Entry point of `resale` (started by `bin/resale.js` with the project's Node 22). Commander parses;
 * each action runs its Effect program and sets `process.exitCode`. Commander's own outcomes map to
 * the CLI's exit codes: help and version 0, every parse problem 2.
 */
const SUCCESSFUL = new Set(["commander.helpDisplayed", "commander.version", "commander.help"])

const main = async (argv: ReadonlyArray<string>): Promise<void> => {
  try {
    await makeCli().parseAsync([...argv], { from: "node" })
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error
    // `resale topups` without a subcommand prints the help as an error (commander.help with exit code 1).
    process.exitCode = SUCCESSFUL.has(error.code) && error.exitCode === 0 ? 0 : 2
  }
}

await main(process.argv)
