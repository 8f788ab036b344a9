/**
 * Two servers (`npm start` with WORKER=false, production mode) on one PostgreSQL database. A stars
 * order with an Idempotency-Key reaches server A, which stops inside the order's transaction (the test
 * holds the account's row lock); server B answers the same key with the 409 of a live holder. A is
 * killed with SIGKILL and the row released: the client, following Retry-After, gets its order from B
 * within seconds, and the database holds exactly one order and one charge for the key.
 */
import { assert, describe, it } from "@effect/vitest"
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Context, Deferred, Effect, Fiber, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { entryProcess, freePort } from "../support/ServerEntry.ts"
import { bundledEntry } from "../worker/support/BundledEntry.ts"

// Settings a developer's shell may carry that would change what the servers do.
const INHERITED = ["DATABASE_URL", "SANDBOX", "WORKER", "PUBLIC_URL", "HOST", "TONCENTER_URL", "FRAGMENT_URL"]

/** Production mode with its required settings; nothing outside is reached to place an order. */
const serverEnv = (url: string, port: number, dataDir: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of INHERITED) delete env[name]
  return {
    ...env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    PG_POOL_MAX: "3",
    SANDBOX: "false",
    WORKER: "false",
    ADMIN_TOKEN: "failover-test-admin-token-24+",
    SESSION_SECRET: "failover-test-session-secret-of-32-chars",
    TELEGRAM_BOT_TOKEN: "123:failover-test-bot-token",
    TELEGRAM_API_URL: "http://127.0.0.1:9",
    TONCENTER_URL: "http://127.0.0.1:9/api/v2/jsonRPC",
    FRAGMENT_URL: "http://127.0.0.1:9",
    FRAGMENT_COOKIES: "stel_ssid=t; stel_dt=-1; stel_token=t; stel_ton_token=t"
  }
}

interface Answer {
  readonly status: number
  readonly retryAfter: number
  readonly replayed: boolean
  readonly body: Record<string, unknown>
}

/** The stars order with `key` on `base`; a failed connection (a killed server) is status 0. */
const buyStars = (base: string, apiKey: string, key: string) =>
  Effect.promise(async (): Promise<Answer> => {
    try {
      const response = await fetch(`${base}/v2/api/stars/buy`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": apiKey, "idempotency-key": key },
        body: JSON.stringify({ username: "failover_friend", amount: 50 }),
        signal: AbortSignal.timeout(60_000)
      })
      return {
        status: response.status,
        retryAfter: Number(response.headers.get("retry-after") ?? 0),
        replayed: response.headers.get("idempotent-replayed") === "true",
        body: await response.json()
      }
    } catch {
      return { status: 0, retryAfter: 0, replayed: false, body: {} }
    }
  })

describe("an Idempotency-Key across servers", () => {
  it.live(
    "the server holding the key is killed mid-order: the retry on another server places it once, within seconds",
    () =>
      Effect.gen(function* () {
        const url = yield* IsolatedPostgres.database.pipe(Effect.orDie)
        const dataDirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), "resale-failover-")))
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))
        )
        const main = yield* bundledEntry("server")
        const [portA, portB] = yield* Effect.promise(() => Promise.all([freePort(), freePort()]))
        const [serverA] = yield* Effect.all(
          [
            entryProcess(serverEnv(url, portA!, dataDirs[0]!), portA!, main),
            entryProcess(serverEnv(url, portB!, dataDirs[1]!), portB!, main)
          ],
          { concurrency: 2 }
        )
        const [a, b] = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`]

        // A shopper with 10,000,000 so'm and an API key, straight through the core on the same database.
        const sql = Context.get(yield* Layer.build(Layer.fresh(PgConnection.layerFromUrl(url, 3))), SqlClient)
        const { apiKey, userId } = yield* Effect.gen(function* () {
          const accounts = yield* Accounts
          const user = yield* accounts.signIn({
            telegramId: 8_100_001,
            username: "failover_buyer",
            firstName: "Test",
            photoUrl: null
          })
          yield* (yield* Balances).adjust({ userId: user.id, amount: 10_000_000, reason: "test", key: "fund-failover" })
          const rotated = yield* accounts.rotateApiKey(user.id)
          return { apiKey: Redacted.value(rotated.apiKey), userId: user.id }
        }).pipe(
          Effect.orDie,
          Effect.provide(
            CoreServices.pipe(Layer.provideMerge(PgStore.layer), Layer.provideMerge(PgConnection.layerFromUrl(url, 2)))
          )
        )
        const count = (query: string, params: ReadonlyArray<unknown> = []) =>
          Effect.map(sql.unsafe<{ n: bigint }>(query, params), ([row]) => Number(row?.n ?? 0)).pipe(Effect.orDie)
        const waitingOnLocks = count(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )

        // The account's row is held, so A's order transaction stops at it, holding the key.
        const release = yield* Deferred.make<void>()
        const locked = yield* Deferred.make<void>()
        const holding = yield* Effect.forkChild(
          sql.withTransaction(
            Effect.gen(function* () {
              yield* sql`SELECT 1 FROM accounts WHERE user_id = ${userId} FOR UPDATE`
              yield* Deferred.succeed(locked, undefined)
              yield* Deferred.await(release)
            })
          )
        )
        yield* Deferred.await(locked)
        const first = yield* Effect.forkChild(buyStars(a, apiKey, "order-1"))
        const deadline = Date.now() + 60_000
        while ((yield* waitingOnLocks) === 0) {
          if (Date.now() > deadline) assert.fail(`server A never reached the account row:\n${serverA!.output()}`)
          yield* Effect.sleep("50 millis")
        }

        // A lives: B answers the same key with the 409 of a request in progress.
        const busy = yield* buyStars(b, apiKey, "order-1")
        assert.deepStrictEqual(
          [busy.status, busy.body["code"], busy.retryAfter],
          [409, "idempotency_key_in_progress", 2]
        )

        // A dies inside its transaction; then the row is free again.
        yield* Effect.promise(
          () =>
            new Promise<void>((done) => {
              serverA!.child.once("exit", () => done())
              serverA!.child.kill("SIGKILL")
            })
        )
        const killedAt = Date.now()
        yield* Deferred.succeed(release, undefined)
        yield* Effect.orDie(Fiber.join(holding))
        // A's request ended without an answer (its connection was cut).
        assert.strictEqual((yield* Fiber.join(first)).status, 0)

        // The client follows Retry-After, on B.
        let answer = yield* buyStars(b, apiKey, "order-1")
        while (answer.status === 409 && answer.body["code"] === "idempotency_key_in_progress") {
          if (Date.now() - killedAt > 10_000) break
          yield* Effect.sleep(`${answer.retryAfter} seconds`)
          answer = yield* buyStars(b, apiKey, "order-1")
        }
        const took = Date.now() - killedAt
        assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
        assert.isBelow(took, 10_000, "the retry after the holder died got its order within 10 s")
        console.log(`the order was placed on B ${took} ms after A was killed`)

        // Exactly once: one order, one charge; the key answers it again.
        assert.strictEqual(yield* count("SELECT count(*) AS n FROM orders WHERE user_id = $1", [userId]), 1)
        assert.strictEqual(
          yield* count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = $1 AND cause = 'order'", [userId]),
          1
        )
        const replay = yield* buyStars(b, apiKey, "order-1")
        assert.deepStrictEqual([replay.status, replay.replayed, replay.body], [200, true, answer.body])
      }).pipe(Effect.scoped),
    240_000
  )
})
