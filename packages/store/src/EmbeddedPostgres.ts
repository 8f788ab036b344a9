import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import type { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Schema } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { PgConnection } from "./PgConnection.ts"

/** Starting or stopping the embedded database failed (disk, WASM start, socket). */
export class EmbeddedPostgresError extends Schema.TaggedError<EmbeddedPostgresError>()("EmbeddedPostgresError", {
  message: Schema.String,
  cause: Schema.Defect()
}) {}

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
 */
const layer = (
  dataDir: string | undefined
): Layer.Layer<PgClient.PgClient | SqlClient, SqlError | EmbeddedPostgresError> =>
  Layer.unwrap(
    Effect.gen(function*() {
      const running = yield* Effect.acquireRelease(start(dataDir), stop)
      return PgConnection.layerFromUrl(`postgres://postgres@${running.server.getServerConn()}/postgres`, 1)
    })
  )

/** `${DATA_DIR}/pg`, the directory `npm start` keeps its embedded database in. */
const dataDirOf = (dataRoot: string): string => join(dataRoot, "pg")

export const EmbeddedPostgres = { layer, dataDirOf } as const
