import { CommanderError } from "commander"
import { makeCli } from "./Cli.ts"

// Commander's own outcomes that are not failures: help and version.
const SUCCESSFUL = new Set(["commander.helpDisplayed", "commander.version", "commander.help"])

/**
 * Runs `resale <args>` (the words after the program name) to completion: commander parses, each
 * action runs its Effect program and sets `process.exitCode`. Commander's own outcomes map to the
 * CLI's exit codes: help and version 0, every parse problem 2. `main.ts` calls this for the real
 * process; tests call it in process to run many commands without starting a Node each time.
 */
export const runCli = async (args: ReadonlyArray<string>): Promise<void> => {
  try {
    await makeCli().parseAsync([...args], { from: "user" })
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error
    // `resale topups` without a subcommand prints the help as an error (commander.help with exit code 1).
    process.exitCode = SUCCESSFUL.has(error.code) && error.exitCode === 0 ? 0 : 2
  }
}
