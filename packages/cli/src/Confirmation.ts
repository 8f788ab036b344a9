import { Effect } from "effect"
import { createInterface } from "node:readline/promises"
import { CliCommandError, CliUsageError } from "./CliErrors.ts"
import { terminalSafe } from "./TerminalText.ts"

/**
 * Asks before a destructive action. `--yes` skips the question; without a terminal on stdin
 * (a script, a pipe) nobody can answer, so the action is refused instead of guessed.
 */
export const confirm = (question: string, options: { readonly yes: boolean; readonly action: string }) =>
  Effect.gen(function* () {
    if (options.yes) return
    if (process.stdin.isTTY !== true) {
      return yield* new CliUsageError({
        message: `refusing to ${options.action} without confirmation: stdin is not a terminal; pass --yes to confirm.`
      })
    }
    // The question goes to stderr, so stdout stays clean for --json output.
    const answer = yield* Effect.tryPromise({
      try: async () => {
        const rl = createInterface({ input: process.stdin, output: process.stderr })
        try {
          // A question may name a shopper's text (a recipient, a username).
          return await rl.question(`${terminalSafe(question)} [y/N] `)
        } finally {
          rl.close()
        }
      },
      // Ctrl-C or Ctrl-D at the prompt: the answer is no.
      catch: () => new CliCommandError({ reason: "Declined", message: "Interrupted; nothing was changed." })
    })
    if (!/^y(es)?$/i.test(answer.trim())) {
      return yield* new CliCommandError({ reason: "Declined", message: `Not confirmed; nothing was changed.` })
    }
  })
