/**
 * A PostgreSQL cluster of a test's own (the distribution's `initdb` and `pg_ctl`), so that the test
 * may stop and start it under running processes without touching the shared test server. Trust
 * auth on loopback, a free port, its data in a temporary directory; stopped and removed with the
 * scope. As root, the binaries run as the `postgres` user (PostgreSQL refuses to run as root).
 */
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { freePort } from "./ServerEntry.ts"

const run = promisify(execFile)

/** The newest installed PostgreSQL's binaries directory, or undefined. */
const binDir = (): string | undefined => {
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin")
}

export interface PrivateCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string
  readonly stop: Effect.Effect<void>
  readonly start: Effect.Effect<void>
  /** The server's own log so far (for failure messages). */
  readonly log: () => Promise<string>
}

/** Starts a fresh cluster; stops and removes it when the scope closes. */
export const privatePostgres = Effect.gen(function* () {
  const bin = binDir()
  if (bin === undefined)
    return yield* Effect.die(
      new Error(
        "PostgreSQL's initdb was not found under /usr/lib/postgresql/*/bin: install postgresql to run this test"
      )
    )
  const asRoot = process.getuid?.() === 0
  const ids = asRoot
    ? yield* Effect.promise(async () => ({
        uid: Number((await run("id", ["-u", "postgres"])).stdout.trim()),
        gid: Number((await run("id", ["-g", "postgres"])).stdout.trim())
      }))
    : undefined
  const as = (command: string, args: ReadonlyArray<string>) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", join(bin, command), ...args]) : run(join(bin, command), [...args])
  const dir = yield* Effect.acquireRelease(
    Effect.sync(() => {
      const made = mkdtempSync(join(tmpdir(), "resale-pg-"))
      if (ids !== undefined) chownSync(made, ids.uid, ids.gid)
      return made
    }),
    (made) => Effect.sync(() => rmSync(made, { recursive: true, force: true }))
  )
  const data = join(dir, "data")
  const logFile = join(dir, "server.log")
  const port = yield* Effect.promise(freePort)
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=60`
  const ctl = (args: ReadonlyArray<string>) =>
    Effect.promise(() => as("pg_ctl", ["-D", data, "-l", logFile, ...args]).then(() => undefined))
  yield* Effect.promise(() => as("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]))
  const start = ctl(["-w", "-t", "30", "-o", options, "start"])
  const stop = ctl(["-w", "-t", "30", "-m", "fast", "stop"])
  yield* Effect.acquireRelease(start, () => Effect.asVoid(Effect.exit(stop)))
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    log: () => run("cat", [logFile]).then((r) => r.stdout)
  } satisfies PrivateCluster
})
