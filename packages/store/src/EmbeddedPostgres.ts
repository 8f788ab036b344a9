import { PGlite } from "@electric-sql/pglite"
import type { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Schema } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync
} from "node:fs"
import { basename, dirname, join, resolve } from "node:path"
import { PgConnection } from "./PgConnection.ts"
import { PgliteWire } from "./PgliteWire.ts"

/** Starting or stopping the embedded database failed (disk, WASM start, socket). */
export class EmbeddedPostgresError extends Schema.TaggedError<EmbeddedPostgresError>()("EmbeddedPostgresError", {
  message: Schema.String,
  cause: Schema.Defect()
}) {}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * PGlite's files belong to one process: a second one opening the same directory would overwrite the
 * first one's writes. `<dataDir>.lock` holds the owner's pid; a lock whose process is gone is taken over.
 */
const lockDataDir = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        const file = `${dataDir}.lock`
        mkdirSync(dirname(file), { recursive: true })
        for (let attempt = 0; attempt < 2; attempt++) {
          try {
            const fd = openSync(file, "wx")
            writeSync(fd, String(process.pid))
            closeSync(fd)
            return file
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
            const owner = Number(readFileSync(file, "utf8").trim())
            if (Number.isSafeInteger(owner) && owner > 0 && isAlive(owner)) {
              throw new Error(
                `process ${owner} is using the embedded database in ${dataDir}; only one process may open it ` +
                  `(stop it, or point every process at one PostgreSQL server with DATABASE_URL)`
              )
            }
            rmSync(file, { force: true })
          }
        }
        throw new Error(`could not lock ${dataDir}`)
      },
      catch: (cause) =>
        new EmbeddedPostgresError({ message: cause instanceof Error ? cause.message : String(cause), cause })
    }),
    (file) => Effect.sync(() => rmSync(file, { force: true }))
  )

/** The Unix socket local tools reach a running process's embedded database on (owner-only permissions). */
const socketPathOf = (dataDir: string): string => resolve(`${dataDir}.sock`)

/**
 * Binds `listen` (e.g. `PgliteWire.listen`) at the Unix socket `path` so that only this OS user can
 * connect, from the socket's first moment there. Listening on `path` and then changing its mode
 * leaves a moment in which any local account could connect (DATA_DIR may be world-readable, e.g.
 * `.data` in a checkout), and a connection accepted then stays open. So it is bound inside a fresh
 * directory beside `path` (mkdtemp makes it 0700), made 0600 there and renamed into place: rename
 * keeps it bound, and atomically replaces a socket left by a process that died.
 */
export const listenOwnerOnly = async (path: string, listen: (at: string) => Promise<unknown>): Promise<void> => {
  const staging = mkdtempSync(join(dirname(path), `.${basename(path)}-`))
  try {
    const bound = join(staging, "s")
    await listen(bound)
    chmodSync(bound, 0o600)
    renameSync(bound, path)
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/**
 * PGlite's single-user PostgreSQL zero-fills its buffer pool at start, so every megabyte of
 * shared_buffers is resident: 16 MB instead of the default 128 MB takes some 120 MB off the idle RSS.
 * The data files stay in the operating system's page cache, which serves what the pool does not hold.
 */
const START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"]

/**
 * The data directory, owner-only: PGlite creates its files world-writable (0666), so the directory
 * is the only thing keeping other local accounts from the ledger. One made by an older version
 * (0755) is tightened at start.
 */
const privateDirectory = (dataDir: string) => {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  chmodSync(dataDir, 0o700)
}

interface Running {
  readonly db: PGlite
  readonly wire: PgliteWire
  readonly socket: string | undefined
}

/**
 * No TCP listener: anyone on the machine could connect to one as `postgres`, PGlite checks no
 * password. This process's pool is served in-process; other processes of the same user (the CLI,
 * backups) come through the owner-only Unix socket.
 */
const start = (dataDir: string | undefined) =>
  Effect.tryPromise({
    try: async (): Promise<Running> => {
      if (dataDir !== undefined) privateDirectory(dataDir)
      const db = await PGlite.create(
        dataDir === undefined ? { startParams: START_PARAMS } : { dataDir, startParams: START_PARAMS }
      )
      const wire = new PgliteWire(db)
      try {
        if (dataDir === undefined) return { db, wire, socket: undefined }
        // A socket left by a process that died is ours to replace: we hold the directory's lock.
        const socket = socketPathOf(dataDir)
        await listenOwnerOnly(socket, (path) => wire.listen({ path }))
        return { db, wire, socket }
      } catch (error) {
        await wire.close()
        await db.close()
        throw error
      }
    },
    catch: (cause) =>
      new EmbeddedPostgresError({ message: `embedded PostgreSQL did not start: ${String(cause)}`, cause })
  })

const stop = ({ db, socket, wire }: Running) =>
  Effect.promise(async () => {
    await wire.close().catch(() => undefined)
    await db.close().catch(() => undefined)
    if (socket !== undefined) rmSync(socket, { force: true })
  })

/**
 * PGlite (PostgreSQL compiled to WASM) persisted in `dataDir` (in memory when undefined), and the same
 * `PgClient` the real server uses, with a pool of one connection served in this process; a persisted
 * one is also served to local tools on its owner-only socket `<dataDir>.sock`. Both are stopped when
 * the layer's scope closes (the client first). A persisted directory is held by one process at a time
 * (`<dataDir>.lock`).
 */
const layer = (
  dataDir: string | undefined
): Layer.Layer<PgClient.PgClient | SqlClient, SqlError | EmbeddedPostgresError> =>
  Layer.unwrap(
    Effect.gen(function* () {
      if (dataDir !== undefined) yield* lockDataDir(dataDir)
      const running = yield* Effect.acquireRelease(start(dataDir), stop)
      return PgConnection.layerFromStream(() => running.wire.connect())
    })
  )

/** The pid of the live process holding `dataDir`, if one does. */
const ownerOf = (dataDir: string): number | undefined => {
  const text = existsSync(`${dataDir}.lock`) ? readFileSync(`${dataDir}.lock`, "utf8").trim() : ""
  const pid = Number(text)
  return text !== "" && Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : undefined
}

/**
 * The embedded database in `dataDir` for a local tool (the CLI, a backup): through the Unix socket of
 * the process that has it open (`npm start`, or another command), or opened here when none has.
 * One connection either way: the session is shared, and one operator command needs no more.
 */
const layerShared = (dataDir: string): Layer.Layer<PgClient.PgClient | SqlClient, SqlError | EmbeddedPostgresError> =>
  Layer.unwrap(
    Effect.sync(() => {
      const socket = socketPathOf(dataDir)
      return ownerOf(dataDir) !== undefined && existsSync(socket)
        ? PgConnection.layerFromSocket(socket)
        : layer(dataDir)
    })
  )

/** `${DATA_DIR}/pg`, the directory `npm start` keeps its embedded database in. */
const dataDirOf = (dataRoot: string): string => join(dataRoot, "pg")

export const EmbeddedPostgres = { layer, layerShared, dataDirOf, socketPathOf, ownerOf } as const
