import { environmentNow } from "@resale/config"
import { Effect, Exit, Layer, Logger, ManagedRuntime, References } from "effect"
import { describeCause, describeError, type Failure } from "./Failures.ts"
import { type Output, toJson } from "./Output.ts"
import { terminalSafe } from "./TerminalText.ts"

/** Options every leaf command accepts. */
export interface CommonOptions {
  readonly json?: boolean
}

// Logs go to stderr and only from warnings up, so stdout carries nothing but the command's output.
const Quiet = Layer.mergeAll(Layer.succeed(Logger.LogToStderr)(true), Layer.succeed(References.MinimumLogLevel)("Warn"))

/** Prints a failure: the sentence on stderr, and with `--json` also a machine-readable object on stdout. */
export const reportFailure = (failure: Failure, json: boolean): void => {
  if (json) process.stdout.write(`${toJson({ ok: false, code: failure.code, message: failure.message })}\n`)
  process.stderr.write(`error: ${terminalSafe(failure.message, { keepNewlines: true })}\n`)
  process.exitCode = failure.exitCode
}

/**
 * Runs one command's program in a `ManagedRuntime` built from `layer`, prints its output and sets
 * the exit code. The layer is loaded only now (the database driver and the embedded PostgreSQL are
 * heavy imports), so `--help` and usage errors answer fast and never open the store. The runtime
 * is disposed afterwards, which closes the pool or stops the embedded database.
 */
export const runCommand = async <R, E>(
  layer: () => Promise<Layer.Layer<R, E>>,
  program: Effect.Effect<Output, unknown, R>,
  options: CommonOptions
): Promise<void> => {
  const json = options.json === true
  // The environment as it is now: a process may run many commands (the tests run them in process).
  const settings = Layer.merge(Quiet, environmentNow())
  const runtime = ManagedRuntime.make(Layer.provideMerge(await layer(), settings))
  // Ctrl-C interrupts the program (an open transaction rolls back) and still closes the database cleanly.
  const interrupt = new AbortController()
  const onSigint = () => interrupt.abort()
  process.once("SIGINT", onSigint)
  try {
    const exit = await runtime.runPromiseExit(program.pipe(Effect.provide(settings)), { signal: interrupt.signal })
    if (Exit.isSuccess(exit)) {
      // Human text is escaped as a whole too: sentences built around a shopper's text (a recipient, a
      // username in a question) get no control character through. A file (CSV) is printed as it is.
      process.stdout.write(
        json
          ? `${toJson(exit.value.json)}\n`
          : exit.value.file === true
            ? exit.value.text
            : `${terminalSafe(exit.value.text, { keepNewlines: true })}\n`
      )
      process.exitCode = 0
    } else {
      reportFailure(describeCause(exit.cause), json)
    }
  } catch (error) {
    reportFailure(describeError(error), json)
  } finally {
    await runtime.dispose().catch(() => undefined)
    process.removeListener("SIGINT", onSigint)
    if (interrupt.signal.aborted) process.exitCode = 130
  }
}
