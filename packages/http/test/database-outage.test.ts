/**
 * What a caller gets while the database is away: the store's storage failures are defects, and the
 * one classifier (`server/DatabaseOutage.ts`) tells a lost or refused connection from a bug. Lost:
 * 503 `database_unavailable` with `Retry-After`; anything else: the 500 of a defect, as before.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { ConnectionError, SqlError, UniqueViolation, UnknownError } from "effect/sql/SqlError"
import { createServer } from "node:http"
import { isDatabaseUnavailable } from "@resale/webkit/DatabaseOutage.ts"
import { serveLean } from "../src/server/LeanServe.ts"
import { fastApiFallback } from "../src/validation/FastApiFallback.ts"
import { call } from "./Client.ts"

const refused = new SqlError({
  reason: new ConnectionError({
    cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    message: "PgConnection: Failed to connect",
    operation: "connect"
  })
})
/** What a backend says to its session when the server is stopped with `pg_ctl stop -m fast`. */
const adminShutdown = new SqlError({
  reason: new UnknownError({
    cause: Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
    message: "PgConnection: Query failed",
    operation: "query"
  })
})
const startingUp = new SqlError({
  reason: new UnknownError({
    cause: Object.assign(new Error("the database system is starting up"), { code: "57P03" }),
    message: "PgConnection: Failed to connect",
    operation: "connect"
  })
})
const duplicate = new SqlError({
  reason: new UniqueViolation({ cause: new Error("duplicate key"), constraint: "orders_pkey", operation: "query" })
})

describe("isDatabaseUnavailable", () => {
  it("a refused, dropped or restarting connection counts; a constraint, a bug or nothing does not", () => {
    assert.isTrue(isDatabaseUnavailable(refused))
    assert.isTrue(isDatabaseUnavailable(adminShutdown))
    assert.isTrue(isDatabaseUnavailable(startingUp))
    assert.isTrue(isDatabaseUnavailable(refused.reason))
    assert.isTrue(isDatabaseUnavailable(new Error("wrapped", { cause: adminShutdown })))
    assert.isFalse(isDatabaseUnavailable(duplicate))
    assert.isFalse(isDatabaseUnavailable(new Error("a bug")))
    assert.isFalse(isDatabaseUnavailable(Object.assign(new Error("x"), { code: "57P01" })))
    assert.isFalse(isDatabaseUnavailable(undefined))
  })
})

const Routes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    yield* router.add("GET", "/refused", Effect.die(refused))
    yield* router.add("GET", "/shutdown", Effect.die(adminShutdown))
    yield* router.add("GET", "/duplicate", Effect.die(duplicate))
  })
)

const MiniServer = serveLean(Layer.mergeAll(Routes, fastApiFallback([])), { logRequests: false }).pipe(
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
)

layer(MiniServer, { excludeTestServices: true })("answers while the database is away", (it) => {
  const base = Effect.map(HttpServer.HttpServer, (server) =>
    server.address._tag === "UnixPathAddress" ? "" : `http://127.0.0.1:${server.address.port}`
  )

  it.effect("a lost connection answers 503 database_unavailable with Retry-After and the request id", () =>
    Effect.gen(function* () {
      const url = yield* base
      for (const path of ["/refused", "/shutdown"]) {
        const answer = yield* call(url, path, { headers: { "x-request-id": "outage-1" } })
        assert.strictEqual(answer.status, 503, path)
        assert.strictEqual(answer.headers["retry-after"], "2", path)
        assert.deepInclude(answer.json, { code: "database_unavailable", request_id: "outage-1" })
        assert.isString(answer.json.detail)
      }
    })
  )

  it.effect("any other storage defect is still a 500 with an error id", () =>
    Effect.gen(function* () {
      const answer = yield* call(yield* base, "/duplicate")
      assert.strictEqual(answer.status, 500)
      assert.strictEqual(answer.json.code, "internal_error")
      assert.isUndefined(answer.headers["retry-after"])
    })
  )
})
