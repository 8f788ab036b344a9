import { Config, Effect } from "effect"
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs"
import { join } from "node:path"
import { CliCommandError } from "./CliErrors.ts"

/**
 * The embedded PostgreSQL (PGlite) is one process's files: a second process opening the same
 * directory sees stale data and can overwrite the first one's writes, and PGlite takes no lock.
 * Before opening it the CLI makes sure that no server answers on this machine's configured port
 * and that no other `resale` command holds the directory.
 */

const LOCK_FILE = "resale-cli.lock"

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

// Exclusive create; a lock left by a process that is gone is taken over.
const takeLock = (file: string): boolean => {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx")
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      const owner = Number(readFileSync(file, "utf8").trim())
      if (Number.isSafeInteger(owner) && owner > 0 && isAlive(owner)) return false
      rmSync(file, { force: true })
    }
  }
  return false
}

/** Whether something answers `GET /healthz` like our server on the port. */
export const serverAnswers = (port: number) =>
  Effect.promise(async () => {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(700) })
      const body = (await response.json().catch(() => ({}))) as { status?: unknown }
      return typeof body.status === "string"
    } catch {
      return false
    }
  })

/** The server's port, read as the server reads it. */
export const serverPort = Config.Port("PORT").pipe(Config.withDefault(8000))

/** Holds the embedded data directory for this command (released when the scope closes). */
export const guardEmbedded = (pgDir: string) =>
  Effect.gen(function*() {
    const port = yield* serverPort
    if (yield* serverAnswers(port)) {
      return yield* new CliCommandError({
        reason: "Unavailable",
        message: `a resale server answers on port ${port} and may be using the embedded database in ${pgDir}, ` +
          `which only one process may open. Stop it first, or run the server and the CLI against DATABASE_URL`
      })
    }
    mkdirSync(pgDir, { recursive: true })
    const file = join(pgDir, "..", LOCK_FILE)
    yield* Effect.acquireRelease(
      Effect.suspend(() =>
        takeLock(file)
          ? Effect.void
          : Effect.fail(
            new CliCommandError({
              reason: "Unavailable",
              message: `another resale command is using the embedded database in ${pgDir}; try again when it has finished`
            })
          )
      ),
      () => Effect.sync(() => rmSync(file, { force: true }))
    )
  })
