/**
 * The service as an operator scales it, in sandbox mode: two servers (`WORKER=false`) and two
 * workers on one PostgreSQL database and one data directory, all started from the start bundle.
 * Stars orders flow with Idempotency-Keys, round-robin over the live servers (every third key sent
 * again to another server), while a worker, a server and then the sandbox world's owner (the first
 * server) are SIGKILLed and started again (a server on its port); a survivor takes the world over.
 * A client whose server died retries its key on another one, as a bot would.
 * Every key ends as exactly one completed order: none lost, none doubled, one charge each, paid once
 * on chain, the balance equal to its ledger, and no 5xx answer anywhere.
 */
import { assert, describe, it } from "@effect/vitest"
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { Context, Effect, Fiber, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, NODE, ROOT, startEntry } from "../support/ServerEntry.ts"
import { bundledEntry } from "./support/BundledEntry.ts"
import { freshDatabase } from "./support/SharedWorld.ts"

const MIN_ORDERS = 12
const FUNDS = 10_000_000
// Settings a developer's shell may carry that would change the world the processes use.
const INHERITED = ["TONCENTER_URL", "FRAGMENT_COOKIES", "FRAGMENT_URL", "HOT_WALLET_MNEMONIC", "SANDBOX", "WORKER"]

const environment = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of INHERITED) delete env[name]
  return { ...env, TELEGRAM_API_URL: "http://127.0.0.1:9", LOG_REQUESTS: "false", ...extra }
}

const killed = (child: ChildProcess) =>
  Effect.promise(
    () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once("exit", () => done())
        child.kill("SIGKILL")
      })
  )

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "")

const waitFor = (what: string, check: () => boolean, seconds: number) =>
  Effect.gen(function* () {
    const deadline = Date.now() + seconds * 1000
    while (!check()) {
      if (Date.now() > deadline) return assert.fail(`timed out waiting for ${what}`)
      yield* Effect.sleep("100 millis")
    }
  })

/** One process of the fleet: "server 0", "worker 1"; its output so far. */
interface Proc {
  readonly name: string
  readonly child: ChildProcess
  readonly log: () => string
}

interface Answer {
  readonly status: number
  readonly retryAfter: number
  readonly body: Record<string, unknown>
}

/** The stars order of `key` on `base`; a refused or cut connection (a killed server) is status 0. */
const buyStars = (base: string, apiKey: string, key: string) =>
  Effect.promise(async (): Promise<Answer> => {
    try {
      const response = await fetch(`${base}/v2/api/stars/buy`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": apiKey, "idempotency-key": key },
        body: JSON.stringify({ username: "fleet_friend", amount: 50 }),
        signal: AbortSignal.timeout(30_000)
      })
      const text = await response.text()
      let body: Record<string, unknown> = { text }
      try {
        body = JSON.parse(text)
      } catch {}
      return { status: response.status, retryAfter: Number(response.headers.get("retry-after") ?? 1), body }
    } catch {
      return { status: 0, retryAfter: 0, body: {} }
    }
  })

describe("a fleet of two servers and two workers", () => {
  it.live(
    "a worker, a server and the world's owner killed while orders flow: every key ends as one completed order",
    () =>
      Effect.gen(function* () {
        const url = yield* freshDatabase
        const dataDir = mkdtempSync(join(tmpdir(), "resale-fleet-kills-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const shared = {
          SANDBOX: "true",
          DATABASE_URL: url,
          DATA_DIR: dataDir,
          // Four processes and the test on a database other tests use too: few connections each.
          PG_POOL_MAX: "3",
          FRAGMENT_SESSION_HOLD: "5 seconds",
          SANDBOX_BLOCK_INTERVAL: "1 second"
        }
        const serverMain = yield* bundledEntry("server")
        const workerMain = yield* bundledEntry("worker")
        const ports = yield* Effect.promise(() => Promise.all([freePort(), freePort()]))
        const bases = ports.map((port) => `http://127.0.0.1:${port}`)
        // The live processes, replaced when restarted (as systemd's Restart=always would).
        const fleet: Array<Proc> = []
        yield* Effect.addFinalizer(() => Effect.forEach(fleet, (p) => killed(p.child), { discard: true }))
        const startServer = (i: number) =>
          Effect.map(
            startEntry(
              environment({ ...shared, PORT: String(ports[i]), WORKER: "false" }),
              ports[i]!,
              undefined,
              serverMain
            ),
            (started): Proc => {
              const proc = { name: `server ${i}`, child: started.child, log: started.output }
              fleet.push(proc)
              return proc
            }
          )
        let spawned = 0
        const startWorker = (i: number) =>
          Effect.gen(function* () {
            const file = join(dataDir, `worker-${i}-${++spawned}.log`)
            const child = spawn(NODE, [workerMain], {
              cwd: ROOT,
              env: environment({
                ...shared,
                WORKER_CONCURRENCY: "4",
                WORKER_POLL_INTERVAL: "50 millis",
                ORDER_LEASE: "2 seconds",
                ORDER_DELIVERY_WAIT: "3 seconds",
                ORDER_RECONCILE_DELAY: "300 millis",
                ORDER_UNKNOWN_RETRY_MAX: "3 seconds",
                WORKER_PAYMENTS_INTERVAL: "500 millis",
                WORKER_NOTIFY_INTERVAL: "200 millis"
              }),
              stdio: ["ignore", openSync(file, "a"), openSync(file, "a")]
            })
            const proc = { name: `worker ${i}`, child, log: () => read(file) }
            fleet.push(proc)
            yield* waitFor(`worker ${i} to start`, () => proc.log().includes("worker started"), 120)
            return proc
          })
        // The first server owns the data directory's world; the other three join it.
        const began = Date.now()
        const phase = (what: string) => Effect.sync(() => console.log(`fleet: ${what} at ${Date.now() - began} ms`))
        yield* startServer(0)
        yield* Effect.all([startServer(1), startWorker(0), startWorker(1)], { concurrency: 3 })
        yield* phase("all four up")
        const live = () => fleet.filter((p) => p.child.exitCode === null && p.child.signalCode === null)
        const owner = () => live().find((p) => /sandbox world owned by this process|owns the world now/.test(p.log()))

        // A shopper with an API key, straight through the core on the same database.
        const sql = Context.get(yield* Layer.build(Layer.fresh(PgConnection.layerFromUrl(url, 1))), SqlClient)
        const { apiKey, userId } = yield* Effect.gen(function* () {
          const accounts = yield* Accounts
          const user = yield* accounts.signIn({
            telegramId: 8_300_001,
            username: "fleet_buyer",
            firstName: "Test",
            photoUrl: null
          })
          yield* (yield* Balances).adjust({ userId: user.id, amount: FUNDS, reason: "test", key: "fund-fleet" })
          return { apiKey: Redacted.value((yield* accounts.rotateApiKey(user.id)).apiKey), userId: user.id }
        }).pipe(
          Effect.orDie,
          Effect.provide(
            CoreServices.pipe(Layer.provideMerge(PgStore.layer), Layer.provideMerge(PgConnection.layerFromUrl(url, 2)))
          )
        )
        const logs = () => fleet.map((p) => `${p.name} (${p.child.pid}):\n${p.log().slice(-1500)}`).join("\n----\n")

        // The client: round-robin over the servers; a dead one is skipped (the key retried elsewhere).
        const fiveXx: Array<string> = []
        const answers: Array<{ key: string; server: number; status: number; ms: number; at: number }> = []
        const orderOf = new Map<string, number>()
        let next = 0
        const place = (key: string, avoid?: number) =>
          Effect.gen(function* () {
            for (let attempt = 0; attempt < 60; attempt++) {
              let i = next++ % 2
              // `avoid`: the first try goes to the other server than the one that placed it.
              if (attempt === 0 && avoid !== undefined) i = 1 - avoid
              const sent = Date.now()
              const answer = yield* buyStars(bases[i]!, apiKey, key)
              answers.push({ key, server: i, status: answer.status, ms: Date.now() - sent, at: sent - began })
              if (answer.status >= 500) fiveXx.push(`${key}: ${answer.status} ${JSON.stringify(answer.body)}`)
              if (answer.status === 200) {
                const id = (answer.body["order"] as { order_id?: unknown } | undefined)?.order_id
                if (typeof id !== "number") return assert.fail(`${key}: no order in ${JSON.stringify(answer.body)}`)
                return { id, server: i }
              }
              if (answer.status === 409 && answer.body["code"] === "idempotency_key_in_progress") {
                yield* Effect.sleep(`${Math.max(1, answer.retryAfter)} seconds`)
              } else if (answer.status !== 0 && answer.status < 500) {
                return assert.fail(`${key}: ${answer.status} ${JSON.stringify(answer.body)}`)
              } else yield* Effect.sleep("200 millis")
            }
            return assert.fail(`${key}: no answer after 60 tries\n${logs()}`)
          })
        // Orders flow at a steady pace until the last kill is behind (at least MIN_ORDERS of them).
        const kills = { done: false }
        const client = yield* Effect.forkChild(
          Effect.gen(function* () {
            for (let n = 0; n < MIN_ORDERS || !kills.done; n++) {
              const key = `fleet-order-${n}`
              const { id, server } = yield* place(key)
              orderOf.set(key, id)
              // Every third key again, on the other server: the same order.
              if (n % 3 === 0) {
                const again = yield* place(key, server)
                assert.strictEqual(again.id, id, `${key} answered another order`)
              }
              yield* Effect.sleep("400 millis")
            }
          })
        )
        const whenPlaced = (count: number) =>
          Effect.gen(function* () {
            while (orderOf.size < count) yield* Effect.sleep("20 millis")
          })

        // The kills, while orders flow: a worker, a server, then the world's owner (the first server,
        // once the other one is back); each is started again at once, as systemd would.
        const firstOwner = owner()
        assert.strictEqual(firstOwner?.name, "server 0", `the first server owns the world:\n${logs()}`)
        yield* whenPlaced(3)
        yield* killed(fleet.find((p) => p.name === "worker 0")!.child)
        const workerBack = yield* Effect.forkChild(startWorker(0))
        yield* phase("worker 0 killed")
        yield* whenPlaced(5)
        yield* killed(fleet.find((p) => p.name === "server 1")!.child)
        yield* startServer(1)
        yield* phase("server 1 killed and back")
        yield* killed(firstOwner!.child)
        const ownerBack = yield* Effect.forkChild(startServer(0))
        yield* phase("server 0, the world's owner, killed")
        const placedBefore = orderOf.size
        yield* whenPlaced(placedBefore + 3)
        kills.done = true
        yield* Fiber.join(client)
        const total = orderOf.size
        yield* phase(`${total} orders placed`)
        const slowest = [...answers].sort((x, y) => y.ms - x.ms).slice(0, 5)
        console.log(`fleet: ${answers.length} requests, slowest ${JSON.stringify(slowest)}`)
        assert.deepStrictEqual(fiveXx, [], "no 5xx answer")
        // A survivor took the world over from the dead owner; the killed ones are back.
        yield* waitFor(`a takeover from the first server:\n${logs()}`, () => owner() !== undefined, 60)
        yield* Fiber.join(workerBack)
        yield* Fiber.join(ownerBack)

        // Every key one order; every order settles.
        const ids = [...orderOf.values()]
        assert.strictEqual(new Set(ids).size, total, "one order per key")
        const statuses = () =>
          sql<{ status: string; n: bigint }>`
            SELECT status, count(*) AS n FROM orders WHERE user_id = ${userId} GROUP BY status`.pipe(
            Effect.orDie,
            Effect.map((rows) => Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])))
          )
        const deadline = Date.now() + 150_000
        for (;;) {
          const now = yield* statuses()
          if (now["completed"] === total) break
          const settled = (now["completed"] ?? 0) + (now["failed"] ?? 0) + (now["needs_attention"] ?? 0)
          if (settled === total || Date.now() > deadline) {
            assert.fail(`not every order completed: ${JSON.stringify(now)}\n${logs()}`)
          }
          yield* Effect.sleep("250 millis")
        }
        yield* phase("every order completed")
        assert.deepStrictEqual(yield* statuses(), { completed: total }, "no order lost or doubled")

        // Money: one charge per order, no refund, the balance is the ledger's sum; each order paid once on chain.
        const [money] = yield* sql<{ charges: bigint; refunds: bigint; total: bigint; balance: bigint }>`
          SELECT (SELECT count(*) FROM ledger_entries WHERE user_id = ${userId} AND cause = 'order') AS charges,
                 (SELECT count(*) FROM ledger_entries WHERE user_id = ${userId} AND cause = 'refund') AS refunds,
                 (SELECT sum(amount_uzs) FROM ledger_entries WHERE user_id = ${userId}) AS total,
                 (SELECT balance_uzs FROM accounts WHERE user_id = ${userId}) AS balance`.pipe(Effect.orDie)
        assert.deepStrictEqual([Number(money!.charges), Number(money!.refunds)], [total, 0])
        assert.strictEqual(Number(money!.balance), Number(money!.total), "the balance is the sum of its ledger")
        assert.isBelow(Number(money!.balance), FUNDS)
        const [paid] = yield* sql<{ n: bigint }>`
          SELECT count(*) AS n FROM wallet_payments WHERE state = 'paid'`.pipe(Effect.orDie)
        assert.strictEqual(Number(paid!.n), total, "each order paid once on chain")
      }).pipe(Effect.scoped),
    300_000
  )
})
