/**
 * PostgreSQL restarts under load. The real server entry (worker in the same process, sandbox world)
 * runs on a cluster of the test's own; clients place stars orders (each with its Idempotency-Key,
 * repeated on 503 until placed) and read the balance while the cluster is stopped (`-m fast`), kept
 * down for 2 s and started again. Every answer is 200 or 503 `database_unavailable` with
 * `Retry-After`, none a 500, none slower than a bound; orders are placed again within seconds of the
 * restart; and every order exists once, is charged once and is completed by the worker.
 */
import { assert, describe, it } from "@effect/vitest"
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { privatePostgres } from "../support/PrivatePostgres.ts"
import { entryProcess, freePort } from "../support/ServerEntry.ts"

// Settings a developer's shell may carry that would change what the server does.
const INHERITED = ["DATABASE_URL", "SANDBOX", "WORKER", "PUBLIC_URL", "HOST", "TONCENTER_URL", "FRAGMENT_URL"]
/** No answer may take longer than this, outage or not: the driver's connect timeout is 5 s. */
const BOUND_MS = 8_000
const FUNDS = 100_000_000

interface Sample {
  readonly at: number
  readonly ms: number
  readonly path: string
  readonly status: number
  readonly retryAfter: string | null
  readonly code: unknown
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("a database restart under load", () => {
  it.live(
    "answers 200 or 503 with Retry-After, comes back by itself, and places and completes every order once",
    () =>
      Effect.gen(function* () {
        const cluster = yield* privatePostgres
        const dataDir = yield* Effect.acquireRelease(
          Effect.sync(() => mkdtempSync(join(tmpdir(), "resale-restart-"))),
          (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
        )
        const port = yield* Effect.promise(freePort)
        const base = `http://127.0.0.1:${port}`
        const env: NodeJS.ProcessEnv = { ...process.env }
        for (const name of INHERITED) delete env[name]
        const server = yield* entryProcess(
          {
            ...env,
            PORT: String(port),
            DATA_DIR: dataDir,
            PUBLIC_URL: base,
            DATABASE_URL: cluster.url,
            PG_POOL_MAX: "5",
            SANDBOX: "true",
            TELEGRAM_API_URL: "http://127.0.0.1:9",
            // An order whose attempt died with the connection is resumed after its lease (60 s by default).
            ORDER_LEASE: "8 seconds"
          },
          port
        )

        // A shopper with an API key and money, straight through the core (the server has migrated).
        const store = CoreServices.pipe(
          Layer.provideMerge(PgStore.layer),
          Layer.provideMerge(PgConnection.layerFromUrl(cluster.url, 2))
        )
        const { apiKey, userId } = yield* Effect.gen(function* () {
          const accounts = yield* Accounts
          const user = yield* accounts.signIn({
            telegramId: 8_200_001,
            username: "restart_buyer",
            firstName: "Test",
            photoUrl: null
          })
          yield* (yield* Balances).adjust({ userId: user.id, amount: FUNDS, reason: "test", key: "fund-restart" })
          const rotated = yield* accounts.rotateApiKey(user.id)
          return { apiKey: Redacted.value(rotated.apiKey), userId: user.id }
        }).pipe(Effect.orDie, Effect.provide(Layer.fresh(store)))

        const samples: Array<Sample> = []
        const hit = async (path: string, init: RequestInit = {}): Promise<Sample> => {
          const started = Date.now()
          let status = 0
          let retryAfter: string | null = null
          let code: unknown
          try {
            const response = await fetch(`${base}${path}`, {
              ...init,
              headers: { "x-api-key": apiKey, "content-type": "application/json", ...init.headers },
              signal: AbortSignal.timeout(BOUND_MS)
            })
            status = response.status
            retryAfter = response.headers.get("retry-after")
            code = ((await response.json()) as { code?: unknown }).code
          } catch (error) {
            status = (error as Error).name === "TimeoutError" ? -1 : 0
          }
          const sample = { at: started, ms: Date.now() - started, path, status, retryAfter, code }
          samples.push(sample)
          return sample
        }

        // One client places an order every ~1.5 s, repeating its key on 503 until it is placed (the
        // sandbox worker pays one order at a time, so a few orders suffice); two read the balance.
        let loading = true
        const placed: Array<string> = []
        const orders = async () => {
          for (let n = 0; loading; n++) {
            const key = `restart-${n}`
            const body = JSON.stringify({ username: "restart_friend", amount: 50 })
            for (let tries = 0; tries < 80; tries++) {
              const answer = await hit("/v2/api/stars/buy", {
                method: "POST",
                body,
                headers: { "idempotency-key": key }
              })
              if (answer.status === 200) {
                placed.push(key)
                break
              }
              if (answer.status !== 503) break
              await sleep(250)
            }
            await sleep(1_500)
          }
        }
        const balances = async () => {
          while (loading) {
            await hit("/v2/api/balance")
            await sleep(100)
          }
        }
        const load = Promise.all([orders(), balances(), balances()])

        yield* Effect.promise(() => sleep(1_500))
        const stoppedAt = Date.now()
        yield* cluster.stop
        yield* Effect.promise(() => sleep(2_000))
        yield* cluster.start
        const startedAt = Date.now()
        yield* Effect.promise(() => sleep(5_000))
        loading = false
        yield* Effect.promise(() => load)

        const report = () => JSON.stringify(samples.filter((s) => s.status !== 200).slice(0, 20))
        // Only 200 or the defined 503; none hung, none a 500 or a dropped connection.
        for (const s of samples) {
          assert.oneOf(s.status, [200, 503], `${s.path} answered ${s.status}: ${report()}\n${server.output()}`)
          assert.isBelow(s.ms, BOUND_MS, `${s.path} took ${s.ms} ms`)
          if (s.status === 503) {
            assert.strictEqual(s.code, "database_unavailable", report())
            assert.strictEqual(s.retryAfter, "2")
          }
        }
        const down = samples.filter((s) => s.status === 503)
        assert.isAbove(down.length, 0, "the outage reached some requests")
        assert.isTrue(
          down.every((s) => s.at >= stoppedAt - 1_000 && s.at <= startedAt + 5_000),
          report()
        )
        // Back within seconds of the start: an order placed after it, quickly.
        const back = samples.find((s) => s.path === "/v2/api/stars/buy" && s.status === 200 && s.at >= startedAt)
        assert.isDefined(back, report())
        assert.isBelow(back!.at + back!.ms - startedAt, 5_000, "an order was placed within 5 s of the restart")
        const keys = placed
        console.log(
          `restart: ${samples.length} answers, ${down.length} x 503, ${keys.length} orders; first order ${back!.at + back!.ms - startedAt} ms after the start`
        )

        // Every order once, charged once, and completed by the worker of the server's process.
        const sql = Context.get(yield* Layer.build(Layer.fresh(PgConnection.layerFromUrl(cluster.url, 1))), SqlClient)
        const count = (query: string) =>
          Effect.map(sql.unsafe<{ n: bigint }>(query, [userId]), ([row]) => Number(row?.n ?? 0)).pipe(Effect.orDie)
        assert.strictEqual(yield* count("SELECT count(*) AS n FROM orders WHERE user_id = $1"), keys.length)
        assert.strictEqual(
          yield* count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = $1 AND cause = 'order'"),
          keys.length
        )
        assert.strictEqual(
          yield* count(
            "SELECT a.balance_uzs + (SELECT coalesce(sum(price_uzs), 0) FROM orders WHERE user_id = $1) AS n FROM accounts a WHERE a.user_id = $1"
          ),
          FUNDS
        )
        // A batch signed just before the outage and never sent holds the wallet until its valid_until has
        // passed (60 s lifetime + 10 s margin): it may have reached the chain, so nothing replaces it sooner.
        const deadline = Date.now() + 45_000 + 70_000
        let open = yield* count("SELECT count(*) AS n FROM orders WHERE user_id = $1 AND status <> 'completed'")
        while (open > 0 && Date.now() < deadline) {
          yield* Effect.sleep("500 millis")
          open = yield* count("SELECT count(*) AS n FROM orders WHERE user_id = $1 AND status <> 'completed'")
        }
        const states = yield* Effect.orDie(
          sql.unsafe("SELECT status, last_error, count(*)::int AS n FROM orders WHERE user_id = $1 GROUP BY 1, 2", [
            userId
          ])
        )
        const notRequests = server
          .output()
          .split("\n")
          .filter((line) => !line.includes('"route"'))
          .slice(-60)
          .join("\n")
        assert.strictEqual(open, 0, `orders not completed: ${JSON.stringify(states)}\n${notRequests}`)
      }).pipe(Effect.scoped),
    // a safety net over the settling wait above, not a duration asserted
    240_000
  )
})
