/**
 * Latency benchmark (prints figures; never pass/fail): what a shopper waits from placing an order to
 * seeing it completed. For each rate, stars orders are placed at that many per second for a while,
 * through the core use case as the API does, while the real worker (`packages/worker/src/main.ts` as its
 * own process: a Highload V3 hot wallet with parallel batches, `WORKER_CONCURRENCY` 512 as
 * docs/operations.md advises for rushes, both overridable from this process's environment) fulfils them on PostgreSQL, the
 * sandbox chain with a block interval (a message runs and shows only with the next block, as on
 * mainnet) and the Fragment simulator. Printed per rate: order-to-completed p50/p95/p99 in seconds and
 * in block intervals (target: p50 within 1.5 block intervals at every rate), orders not completed.
 * Each rate runs on a fresh database and a fresh sandbox world; the worker is ready before the first order.
 * `BENCH_NODE_ARGS` adds node flags to the worker (e.g. `--cpu-prof`).
 * Needs PostgreSQL at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432).
 * Run: node bench/latency/run.ts [rates per second, default 1,50] [seconds of placing, default 60]
 *      [block seconds, default 5]
 */
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Migrations } from "@resale/store/Migrations.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { spawn } from "node:child_process"
import { copyFileSync, mkdtempSync, openSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort, sleep, waitReady } from "../support/Processes.ts"
import { sandboxWorkerEnv, startSandboxWorld } from "../support/SandboxWorld.ts"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const NODE = join(ROOT, "node_modules/.bin/node")
const RATES = (process.argv[2] ?? "1,50").split(",").map(Number)
const SECONDS = Number(process.argv[3] ?? 60)
const BLOCK_SECONDS = Number(process.argv[4] ?? 5)
// Orders still open this long after the last was placed are counted as not completed.
const SETTLE_SECONDS = 120

interface Figures {
  readonly rate: number
  readonly placed: number
  readonly completed: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
}

const runOne = async (rate: number): Promise<Figures> => {
  const name = uniqueName("resale_latency")
  await Effect.runPromise(createDatabase(name))
  const url = databaseUrl(name)
  const dataDir = mkdtempSync(join(tmpdir(), "resale-latency-"))
  const shop = CoreServices.pipe(
    Layer.provideMerge(PgStore.layer),
    Layer.provideMerge(Migrations.layer),
    Layer.provideMerge(PgConnection.layerFromUrl(url, 8))
  )
  const shopScope = Scope.makeUnsafe()
  const services = await Effect.runPromise(Layer.buildWithScope(shop, shopScope))
  const run = <A, E>(effect: Effect.Effect<A, E, Layer.Success<typeof shop>>) =>
    Effect.runPromise(Effect.provide(effect, services))
  const worldScope = Scope.makeUnsafe()
  await startSandboxWorld(dataDir, BLOCK_SECONDS, worldScope)
  const probePort = await freePort()
  // BENCH_NODE_ARGS: extra node flags for the worker, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter((a) => a.length > 0)
  const worker = spawn(NODE, [...nodeArgs, "packages/worker/src/main.ts"], {
    cwd: ROOT,
    env: sandboxWorkerEnv(url, dataDir, BLOCK_SECONDS, probePort, {
      // The sandbox's own default is a v5r1 (one message in flight) and 4 orders at once: a shop's
      // latency under load is measured as an operator would run it (docs/operations.md).
      HOT_WALLET_VERSION: process.env.HOT_WALLET_VERSION ?? "highload-v3",
      WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY ?? "512"
    }),
    stdio: ["ignore", openSync(join(dataDir, "worker.log"), "w"), "inherit"]
  })
  try {
    await waitReady(`http://127.0.0.1:${probePort}/readyz`, worker)
    const user = await run(
      Effect.gen(function* () {
        const signedIn = yield* (yield* Accounts).signIn({
          telegramId: 9_000_002,
          username: "latency_buyer",
          firstName: "Bench",
          photoUrl: null
        })
        yield* (yield* Balances)
          .adjust({ userId: signedIn.id, amount: 10_000_000_000, reason: "bench funding", key: "bench-fund" })
          .pipe(Effect.orDie)
        return signedIn
      })
    )
    // Each order placed on its own tick (not waiting for the one before), as shoppers arrive.
    const total = Math.max(1, Math.round(rate * SECONDS))
    const started = Date.now()
    const placing: Array<Promise<unknown>> = []
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate
      if (due > Date.now()) await sleep(due - Date.now())
      placing.push(
        run(OrderService.use((o) => o.create(user.id, { kind: "stars", recipient: `lat_r${i}`, stars: 50 })))
      )
    }
    await Promise.all(placing)
    const open = () =>
      run(
        Effect.gen(function* () {
          const sql = yield* SqlClient
          const [row] = yield* sql<{ open: bigint }>`
            SELECT count(*) AS open FROM orders WHERE status IN ('queued', 'processing')`
          return Number(row!.open)
        })
      )
    const deadline = Date.now() + SETTLE_SECONDS * 1000
    while ((await open()) > 0 && Date.now() < deadline && worker.exitCode === null) await sleep(1000)
    const final = await run(
      Effect.gen(function* () {
        const sql = yield* SqlClient
        const [row] = yield* sql<{ completed: bigint; ps: ReadonlyArray<number> | null }>`
          SELECT count(*) AS completed,
                 percentile_cont(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (
                   ORDER BY extract(epoch FROM completed_at - created_at)) AS ps
            FROM orders WHERE status = 'completed'`
        return row!
      })
    )
    const [p50 = Number.NaN, p95 = Number.NaN, p99 = Number.NaN] = (final.ps ?? []).map(Number)
    return { rate, placed: total, completed: Number(final.completed), p50, p95, p99 }
  } finally {
    worker.kill("SIGTERM")
    await new Promise((r) => (worker.exitCode !== null ? r(undefined) : worker.once("exit", r)))
    await Effect.runPromise(Scope.close(shopScope, Exit.void))
    await Effect.runPromise(dropDatabase(name)).catch(() => undefined)
    await Effect.runPromise(Scope.close(worldScope, Exit.void))
    // LATENCY_LOG_DIR: keep each rate's worker log (JSON lines with timestamps) to see where the time goes.
    const keep = process.env.LATENCY_LOG_DIR
    if (keep !== undefined) copyFileSync(join(dataDir, "worker.log"), join(keep, `worker-${rate}.log`))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const results: Array<Figures> = []
for (const rate of RATES) {
  console.log(`${rate} orders/s for ${SECONDS} s, block interval ${BLOCK_SECONDS} s ...`)
  results.push(await runOne(rate))
}
console.log(
  `\nLatency benchmark: order placed -> completed, sandbox block interval ${BLOCK_SECONDS} s; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`
)
const blocks = (seconds: number) => (seconds / BLOCK_SECONDS).toFixed(2)
for (const r of results) {
  console.log(
    `  ${r.rate}/s: ${r.completed} of ${r.placed} completed; p50 ${r.p50.toFixed(2)} s (${blocks(r.p50)} blocks, target <= 1.5), p95 ${r.p95.toFixed(2)} s (${blocks(r.p95)}), p99 ${r.p99.toFixed(2)} s (${blocks(r.p99)})`
  )
}
