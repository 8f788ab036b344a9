/**
 * The embedded database of `npm start` is reachable by the server's own OS user only: the process
 * tree listens on TCP for HTTP and, in sandbox mode, for the sandbox world it announces (toncenter
 * endpoint, Fragment simulator) and on nothing else (the database had a password-less loopback port);
 * local tools reach the database on `DATA_DIR/pg.sock`, 0600, whose data directory is 0700, even when
 * DATA_DIR itself is world-readable; another account can neither connect nor read the files.
 */
import { assert, describe, it } from "@effect/vitest"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { asAnotherUser, canSwitchUser } from "@resale/store/testing/AnotherUser.ts"
import { worldSocketOf } from "@resale/world/SharedSandbox.ts"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { listeningPorts } from "../support/ListeningPorts.ts"
import { entryProcess, freePort } from "../support/ServerEntry.ts"
import { bundledEntry } from "../worker/support/BundledEntry.ts"

// Settings a developer's shell may carry that would move `npm start` off its defaults.
const INHERITED = ["DATABASE_URL", "HOST", "SANDBOX", "WORKER", "TONCENTER_URL", "FRAGMENT_URL", "FRAGMENT_COOKIES"]

/** What the owner of the sandbox world announces on its socket: where its chain and Fragment listen. */
const announcedWorld = (dataDir: string) =>
  Effect.promise(
    () =>
      new Promise<{ readonly toncenter: string; readonly fragment: string; readonly pid: number }>(
        (resolve, reject) => {
          let text = ""
          const socket = connect(worldSocketOf(dataDir))
          socket.on("data", (chunk) => (text += chunk))
          socket.on("end", () => resolve(JSON.parse(text)))
          socket.on("error", reject)
        }
      )
  )

const modeOf = (path: string) => lstatSync(path).mode & 0o777

describe("npm start on the embedded database: reachable by its own user only", () => {
  it.live(
    "no database port: TCP only for HTTP and the announced sandbox world; an owner-only socket",
    () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "resale-access-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        // As a `.data` in a checkout: anyone may look inside DATA_DIR.
        chmodSync(dataDir, 0o755)
        const port = yield* Effect.promise(freePort)
        const env: NodeJS.ProcessEnv = { ...process.env }
        for (const name of INHERITED) delete env[name]
        const server = yield* entryProcess(
          { ...env, PORT: String(port), DATA_DIR: dataDir, TELEGRAM_API_URL: "http://127.0.0.1:9" },
          port,
          yield* bundledEntry("server")
        )
        assert.include(server.output(), "SANDBOX MODE")

        const world = yield* announcedWorld(dataDir)
        assert.strictEqual(world.pid, server.child.pid)
        const expected = [port, Number(new URL(world.toncenter).port), Number(new URL(world.fragment).port)]
        const listening = listeningPorts(server.child.pid!)
        assert.deepStrictEqual(
          listening.map((l) => l.port).sort((a, b) => a - b),
          expected.sort((a, b) => a - b),
          JSON.stringify(listening)
        )

        // The database's socket: bound owner-only from its first moment (no staging directory left behind).
        const socket = join(dataDir, "pg.sock")
        assert.isTrue(lstatSync(socket).isSocket())
        assert.strictEqual(modeOf(socket), 0o600)
        assert.strictEqual(modeOf(join(dataDir, "pg")), 0o700)
        assert.deepStrictEqual(
          readdirSync(dataDir).filter((name) => name.startsWith(".")),
          [],
          "no staging directory left"
        )
        // Its owner (this user) is served through it.
        const one = yield* Effect.gen(function* () {
          const sql = yield* SqlClient
          return yield* sql<{ readonly one: number }>`SELECT 1 AS one`
        }).pipe(Effect.provide(Layer.fresh(PgConnection.layerFromSocket(socket))), Effect.orDie)
        assert.deepStrictEqual(one, [{ one: 1 }])

        // Another local account: refused by the socket's mode, and the data files are out of its reach.
        if (canSwitchUser()) {
          const other = yield* Effect.promise(() => asAnotherUser(socket, join(dataDir, "pg", "PG_VERSION")))
          assert.deepStrictEqual(other, { connect: "EACCES", read: "EACCES" })
        }
      }).pipe(Effect.scoped),
    240_000
  )
})
