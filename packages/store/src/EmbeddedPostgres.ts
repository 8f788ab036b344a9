import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import type { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Schema } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs"
import { dirname, join } from "node:path"
import { PgConnection } from "./PgConnection.ts"

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
      catch: (cause) => new EmbeddedPostgresError({ message: cause instanceof Error ? cause.message : String(cause), cause })
    }),
    (file) => Effect.sync(() => rmSync(file, { force: true }))
  )

const start = (dataDir: string | undefined) =>
  Effect.tryPromise({
    try: async () => {
      if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true })
      const db = await PGlite.create(dataDir === undefined ? {} : { dataDir })
      // One socket connection: the socket server serialises per message, so a pool > 1 corrupts extended-protocol streams.
      const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 1 })
      await server.start().catch(async (error: unknown) => {
        await db.close()
        throw error
      })
      return { db, server }
    },
    catch: (cause) => new EmbeddedPostgresError({ message: `embedded PostgreSQL did not start: ${String(cause)}`, cause })
  })

const stop = ({ db, server }: { readonly db: PGlite; readonly server: PGLiteSocketServer }) =>
  Effect.promise(async () => {
    await server.stop().catch(() => undefined)
    await db.close().catch(() => undefined)
  })

/**
 * PGlite (PostgreSQL compiled to WASM) persisted in `dataDir` (in memory when undefined), served over the
 * PostgreSQL wire protocol on 127.0.0.1 at a random port, and the same `PgClient` the real server uses,
 * with a pool of one connection. Both are stopped when the layer's scope closes (the client first).
 * A persisted directory is held by one process at a time (`<dataDir>.lock`).
 */
const layer = (
  dataDir: string | undefined
): Layer.Layer<PgClient.PgClient | SqlClient, SqlError | EmbeddedPostgresError> =>
  Layer.unwrap(
    Effect.gen(function*() {
      if (dataDir !== undefined) yield* lockDataDir(dataDir)
      const running = yield* Effect.acquireRelease(start(dataDir), stop)
      return PgConnection.layerFromUrl(`postgres://postgres@${running.server.getServerConn()}/postgres`, 1)
    })
  )

/** `${DATA_DIR}/pg`, the directory `npm start` keeps its embedded database in. */
const dataDirOf = (dataRoot: string): string => join(dataRoot, "pg")

export const EmbeddedPostgres = { layer, dataDirOf } as const
