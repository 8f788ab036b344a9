/**
 * Who may reach the embedded database: its process (in-process pool) and the same OS user's tools
 * through `<dataDir>.sock`, bound owner-only from its first moment; the data directory is 0700
 * (PGlite writes its files world-writable), also one an older version left at 0755.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { EmbeddedPostgres, listenOwnerOnly } from "../src/EmbeddedPostgres.ts"
import { PgConnection } from "../src/PgConnection.ts"
import { asAnotherUser, canSwitchUser } from "../src/testing/AnotherUser.ts"

const modeOf = (path: string) => lstatSync(path).mode & 0o777

const selectOne = Effect.gen(function* () {
  const sql = yield* SqlClient
  return yield* sql<{ readonly one: number }>`SELECT 1 AS one`
})

/** A world-readable directory, as `.data` in a checkout is. */
const openDirectory = (prefix: string) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const dir = mkdtempSync(join(tmpdir(), prefix))
      chmodSync(dir, 0o755)
      return dir
    }),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

describe("embedded database access", () => {
  it.live(
    "the pool is served in-process; the socket is 0600, the data directory 0700; another account gets nowhere",
    () =>
      Effect.gen(function* () {
        const root = yield* openDirectory("resale-access-")
        const dataDir = join(root, "pg")
        mkdirSync(dataDir, { mode: 0o755 })
        const socket = EmbeddedPostgres.socketPathOf(dataDir)
        yield* Effect.gen(function* () {
          assert.deepStrictEqual(yield* selectOne, [{ one: 1 }])
          assert.isTrue(lstatSync(socket).isSocket())
          assert.strictEqual(modeOf(socket), 0o600)
          assert.strictEqual(modeOf(dataDir), 0o700)
          assert.deepStrictEqual(readdirSync(root).sort(), ["pg", "pg.lock", "pg.sock"])
          const local = yield* selectOne.pipe(Effect.provide(Layer.fresh(PgConnection.layerFromSocket(socket))))
          assert.deepStrictEqual(local, [{ one: 1 }])
          if (canSwitchUser()) {
            const other = yield* Effect.promise(() => asAnotherUser(socket, join(dataDir, "PG_VERSION")))
            assert.deepStrictEqual(other, { connect: "EACCES", read: "EACCES" })
          }
        }).pipe(Effect.provide(Layer.fresh(EmbeddedPostgres.layer(dataDir))), Effect.orDie)
        assert.isFalse(existsSync(socket), "the socket goes with the database")
      }),
    120_000
  )

  it.live("listenOwnerOnly replaces a dead process's socket, and leaves nothing when listening fails", () =>
    Effect.gen(function* () {
      const root = yield* openDirectory("resale-socket-")
      const path = join(root, "db.sock")
      writeFileSync(path, "left by a process that died")
      const server = createServer((connection) => connection.end())
      const listen = (at: string) =>
        new Promise<void>((resolve, reject) => {
          server.once("error", reject)
          server.listen(at, () => resolve())
        })
      yield* Effect.promise(() => listenOwnerOnly(path, listen))
      yield* Effect.addFinalizer(() => Effect.sync(() => server.close()))
      assert.isTrue(lstatSync(path).isSocket())
      assert.strictEqual(modeOf(path), 0o600)
      assert.deepStrictEqual(readdirSync(root), ["db.sock"])

      const failed = yield* Effect.flip(
        Effect.tryPromise(() => listenOwnerOnly(join(root, "other.sock"), () => Promise.reject(new Error("no"))))
      )
      assert.include(String(failed.cause), "no")
      assert.deepStrictEqual(readdirSync(root), ["db.sock"])
    }).pipe(Effect.scoped)
  )
})
