/**
 * Several wire clients on one PGlite session (the server's pool and a CLI command beside it): their
 * extended-protocol cycles never interleave, a transaction keeps the session until it ends (the other
 * client waits, then sees the committed rows), and a client that vanishes inside a transaction leaves
 * nothing behind.
 */
import { PGlite } from "@electric-sql/pglite"
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { createConnection } from "node:net"
import { PgConnection } from "../src/PgConnection.ts"
import { PgliteWire } from "../src/PgliteWire.ts"

const served = Effect.acquireRelease(
  Effect.promise(async () => {
    const db = await PGlite.create()
    await db.exec("CREATE TABLE items (id int PRIMARY KEY, owner text NOT NULL, amount int NOT NULL)")
    const wire = new PgliteWire(db)
    const address = await wire.listen({ host: "127.0.0.1", port: 0 })
    return { db, wire, url: `postgres://postgres@${address}/postgres` }
  }),
  ({ db, wire }) =>
    Effect.promise(async () => {
      await wire.close()
      await db.close()
    })
)

/** `SqlClient` of a fresh pool of `size` connections to `url`, for `effect`. */
const through =
  (url: string, size: number) =>
  <A, E>(effect: Effect.Effect<A, E, SqlClient>) =>
    Effect.provide(effect, Layer.fresh(PgConnection.layerFromUrl(url, size)))

describe("PgliteWire", () => {
  it.live(
    "two pools at once: parameterised statements and transactions never mix, every row lands once",
    () =>
      Effect.gen(function* () {
        const { url } = yield* served
        const work = (owner: string, from: number) =>
          Effect.forEach(
            Array.from({ length: 30 }, (_, i) => from + i),
            (id) =>
              Effect.gen(function* () {
                const sql = yield* SqlClient
                yield* sql.withTransaction(
                  Effect.gen(function* () {
                    yield* sql`INSERT INTO items (id, owner, amount) VALUES (${id}, ${owner}, ${id * 2})`
                    const [row] = yield* sql<{
                      readonly amount: number
                    }>`SELECT amount FROM items WHERE id = ${id} AND owner = ${owner}`
                    assert.strictEqual(row?.amount, id * 2)
                  })
                )
                const [count] = yield* sql<{
                  readonly n: number
                }>`SELECT count(*)::int AS n FROM items WHERE owner = ${owner} AND id <= ${id}`
                assert.isAtLeast(count?.n ?? 0, 1)
              }),
            { concurrency: 4 }
          )
        yield* Effect.all([through(url, 4)(work("server", 0)), through(url, 2)(work("cli", 1000))], { concurrency: 2 })
        const rows = yield* through(
          url,
          1
        )(
          Effect.gen(function* () {
            const sql = yield* SqlClient
            return yield* sql<{
              readonly owner: string
              readonly n: number
            }>`SELECT owner, count(*)::int AS n FROM items GROUP BY owner ORDER BY owner`
          })
        )
        assert.deepStrictEqual(
          rows.map((r) => [r.owner, r.n]),
          [
            ["cli", 30],
            ["server", 30]
          ]
        )
      }),
    60_000
  )

  it.live(
    "a transaction keeps the session: the other client waits and then reads the committed row",
    () =>
      Effect.gen(function* () {
        const { url, wire } = yield* served
        const order: Array<string> = []
        const inserted = yield* Deferred.make<void>()
        const writer = through(
          url,
          1
        )(
          Effect.gen(function* () {
            const sql = yield* SqlClient
            yield* sql.withTransaction(
              Effect.gen(function* () {
                yield* sql`INSERT INTO items (id, owner, amount) VALUES (1, 'writer', 5)`
                order.push("inserted")
                yield* Deferred.succeed(inserted, undefined)
                // Commit only once the reader's query is queued behind this transaction.
                while (wire.waiting === 0) yield* Effect.yieldNow
                order.push("committing")
              })
            )
          })
        )
        const reader = through(
          url,
          1
        )(
          Effect.gen(function* () {
            const sql = yield* SqlClient
            yield* Deferred.await(inserted)
            const rows = yield* sql<{ readonly amount: number }>`SELECT amount FROM items WHERE id = 1`
            order.push(`read ${rows.length}`)
          })
        )
        yield* Effect.all([writer, reader], { concurrency: 2 })
        assert.deepStrictEqual(order, ["inserted", "committing", "read 1"])
      }),
    60_000
  )

  it.live(
    "a client gone inside its transaction: rolled back, the others carry on",
    () =>
      Effect.gen(function* () {
        const { url } = yield* served
        const { hostname: host, port } = new URL(url)
        // A raw client: startup, BEGIN and an INSERT by simple query, then the socket is destroyed.
        yield* Effect.promise(
          () =>
            new Promise<void>((resolve, reject) => {
              const socket = createConnection({ host, port: Number(port) })
              const startup = (() => {
                const body = Buffer.concat([Buffer.from("user\0postgres\0database\0postgres\0\0")])
                const head = Buffer.alloc(8)
                head.writeInt32BE(8 + body.length, 0)
                head.writeInt32BE(196608, 4)
                return Buffer.concat([head, body])
              })()
              const query = (text: string) => {
                const body = Buffer.from(`${text}\0`)
                const head = Buffer.alloc(5)
                head.write("Q", 0)
                head.writeInt32BE(4 + body.length, 1)
                return Buffer.concat([head, body])
              }
              let seen = 0
              socket.on("error", reject)
              socket.on("data", (data) => {
                // Count ReadyForQuery messages: after startup, then after the transaction's statement.
                seen += data.toString("latin1").split("Z\0\0\0\x05").length - 1
                if (seen === 1)
                  socket.write(query("BEGIN; INSERT INTO items (id, owner, amount) VALUES (7, 'ghost', 1)"))
                if (seen === 2) {
                  socket.destroy()
                  resolve()
                }
              })
              socket.write(startup)
            })
        )
        const rows = yield* through(
          url,
          1
        )(
          Effect.gen(function* () {
            const sql = yield* SqlClient
            return yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM items WHERE owner = 'ghost'`
          })
        )
        assert.strictEqual(rows[0]?.n, 0)
      }),
    60_000
  )
})
