import { runCli } from "@resale/cli/Program.ts"
import { Console } from "node:console"
import { Writable } from "node:stream"

/** What one `resale` run printed and its exit code (the same shape as a child process's). */
export interface CliRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const collector = (chunks: Array<string>) =>
  new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(String(chunk))
      done()
    }
  })

// One run at a time: a run borrows the process's stdout, stderr, exit code and environment.
let queue: Promise<unknown> = Promise.resolve()

/**
 * Runs `resale <args>` in this process through the CLI's program entry (`runCli`), exactly as
 * `main.ts` does, with `env` applied to `process.env` for the run (undefined unsets a variable).
 * stdout and stderr (including the console, where logs go) are captured and the exit code read
 * from `process.exitCode`, then everything is put back. stdin is never a terminal here, as for a
 * child process with a pipe, so confirmations are refused unless `--yes` is given. Saves a Node
 * start-up and the module loading per command; the launcher itself is covered by real-process tests.
 */
export const runInProcess = (args: ReadonlyArray<string>, env: Record<string, string | undefined>): Promise<CliRun> => {
  const run = queue.then(() => runNow(args, env))
  queue = run.catch(() => undefined)
  return run
}

const runNow = async (args: ReadonlyArray<string>, env: Record<string, string | undefined>): Promise<CliRun> => {
  const stdout: Array<string> = []
  const stderr: Array<string> = []
  const savedEnv = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]))
  const setEnv = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
  const writeOut = process.stdout.write
  const writeErr = process.stderr.write
  const savedConsole = globalThis.console
  const savedExitCode = process.exitCode
  const ttyDescriptor = Object.getOwnPropertyDescriptor(process.stdin, "isTTY")
  const capture = (chunks: Array<string>) =>
    ((chunk: unknown, ...rest: Array<unknown>) => {
      chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8"))
      const done = rest.find((arg) => typeof arg === "function") as (() => void) | undefined
      done?.()
      return true
    }) as typeof process.stdout.write
  setEnv(env)
  process.exitCode = undefined
  process.stdout.write = capture(stdout)
  process.stderr.write = capture(stderr)
  globalThis.console = new Console({ stdout: collector(stdout), stderr: collector(stderr) })
  Object.defineProperty(process.stdin, "isTTY", { value: false, configurable: true })
  try {
    await runCli(args)
    const code = process.exitCode
    return {
      code: code === undefined || code === null ? 0 : Number(code),
      stdout: stdout.join(""),
      stderr: stderr.join("")
    }
  } finally {
    process.stdout.write = writeOut
    process.stderr.write = writeErr
    globalThis.console = savedConsole
    process.exitCode = savedExitCode
    if (ttyDescriptor === undefined) delete (process.stdin as { isTTY?: boolean }).isTTY
    else Object.defineProperty(process.stdin, "isTTY", ttyDescriptor)
    setEnv(savedEnv)
  }
}
