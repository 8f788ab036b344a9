/**
 * Fulfilment benchmark (prints figures; never pass/fail): N queued stars orders drained by the real
 * worker (`npm run worker` as its own process) from one hot wallet, on PostgreSQL, the sandbox chain
 * with a block interval (a sent message runs and shows only with the next block, as on mainnet) and
 * the Fragment simulator (SANDBOX_FRAGMENT_SESSIONS cookie sessions, default 4 here). Every order is
 * queued before the worker starts. Per wallet setting:
 * - time from the worker's readiness to the last order completed;
 * - orders completed per block interval (target >= 100);
 * - TON the hot wallet spent in fees per completed order (its external messages' transaction fees
 *   plus the forwarding fees of what they sent; target: not above a single transfer's);
 * - CPU time (user + system) from the worker's readiness until all settled, of the worker, of this
 *   process (the sandbox world: chain emulator and Fragment simulator) and of the database's backends,
 *   per completed order: the figure a shared machine does not inflate (Linux /proc).
 * Each setting runs on a fresh database and a fresh sandbox world. A setting is `VERSION[:BATCH]`,
 * the worker's own environment: `HOT_WALLET_VERSION=VERSION` and, when given, `HOT_WALLET_BATCH=BATCH`
 * (payments per external message) with `WORKER_CONCURRENCY` four times as large (a batch holds at
 * most the orders a worker carries at once); `SANDBOX_BLOCK_INTERVAL` is the block argument. Any other
 * worker setting passes through from this process's environment; `BENCH_NODE_ARGS` adds node flags
 * to the worker (e.g. `--cpu-prof`). The worker's log is kept as `$TMPDIR/resale-fulfil-<setting>.log`.
 * Needs PostgreSQL at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432).
 * Run: node bench/fulfilment/run.ts [orders, default 1000] [block seconds, default 5]
 *      [settings, default v5r1,v4r2] [minutes allowed per setting, default 120]
 * e.g. `node bench/fulfilment/run.ts 1000 5 v5r1:1,v5r1:255,v4r2:4` (one at a time, V5R1 and V4R2 batches).
 */
import { CoreServices } from "@resale/core/CoreServices.ts"
import type { WalletVersion } from "@resale/core/ports/Blockchain.ts"
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { Migrations } from "@resale/store/Migrations.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { sandboxHotWalletPhrase } from "@resale/ton/TonHotWallet.ts"
import { makeTonBlockchain } from "@resale/ton/TonBlockchain.ts"
import { tonCenterClient } from "@resale/ton/TonCenterBlockchain.ts"
import { Address, fromNano } from "@ton/core"
import { TonClient } from "@ton/ton"
import { Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { spawn } from "node:child_process"
import { copyFileSync, mkdtempSync, openSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { backendsCpu, cpuOf, freePort, sleep, waitReady, worldOf } from "../support/Processes.ts"
import { sandboxWorkerEnv, startSandboxWorld } from "../support/SandboxWorld.ts"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const NODE = join(ROOT, "node_modules/.bin/node")
const ORDERS = Number(process.argv[2] ?? 1000)
const BLOCK_SECONDS = Number(process.argv[3] ?? 5)
const WALLETS = (process.argv[4] ?? "v5r1,v4r2").split(",")
const MINUTES = Number(process.argv[5] ?? 120)
const STARS = 50

/**
 * TON the wallet spent in fees on its external messages since logical time `afterLt`, and how many there
 * were: each external's transaction and forwarding fees, and for a Highload Wallet V3 also those of the
 * run of its internal_transfer (the message to itself that carries the payments).
 */
const feesSince = async (client: TonClient, address: Address, afterLt: bigint) => {
  let fees = 0n
  let messages = 0
  let transfers = 0
  let cursor: { lt: string; hash: string } | undefined
  for (;;) {
    const page = await client.getTransactions(address, { limit: 100, archival: true, ...(cursor ?? {}) })
    const fresh = page.filter((tx) => tx.lt > afterLt && (cursor === undefined || tx.lt.toString() !== cursor.lt))
    for (const tx of fresh) {
      const info = tx.inMessage?.info
      const external = info?.type === "external-in"
      if (!external && !(info?.type === "internal" && info.src.equals(address))) continue
      if (external) messages++
      fees += tx.totalFees.coins
      for (const out of tx.outMessages.values()) {
        if (out.info.type === "internal") {
          if (!out.info.dest.equals(address)) transfers++
          fees += out.info.forwardFee
        }
      }
    }
    const last = page.at(-1)
    if (fresh.length === 0 || last === undefined || last.lt <= afterLt) break
    cursor = { lt: last.lt.toString(), hash: last.hash().toString("base64") }
  }
  return { fees, messages, transfers }
}

interface Figures {
  readonly wallet: string
  readonly completed: number
  readonly failed: number
  readonly open: number
  readonly seconds: number
  readonly placingSeconds: number
  readonly perBlock: number
  readonly feePerOrder: number
  readonly feePerTransfer: number
  readonly messages: number
  readonly transfers: number
  /** CPU seconds (user + system) during the drain: the worker, this process (the world), the database's backends. */
  readonly cpu: { readonly worker: number; readonly world: number; readonly database: number }
  /** Payments recorded paid by the wallet batches, how many batches, the largest (when batching exists). */
  readonly batches: { readonly paid: number; readonly count: number; readonly largest: number } | undefined
}

const runOne = async (setting: string): Promise<Figures> => {
  const [wallet = "v5r1", batch] = setting.split(":")
  const name = uniqueName("resale_fulfil")
  await Effect.runPromise(createDatabase(name))
  const url = databaseUrl(name)
  const dataDir = mkdtempSync(join(tmpdir(), "resale-fulfil-"))
  // The rush: every order queued before the worker starts, placed through the core use case as the API does.
  const shop = CoreServices.pipe(
    Layer.provideMerge(PgStore.layer),
    Layer.provideMerge(Migrations.layer),
    Layer.provideMerge(PgConnection.layerFromUrl(url, 8))
  )
  const placingStarted = Date.now()
  await Effect.runPromise(
    Effect.gen(function* () {
      const accounts = yield* Accounts
      const balances = yield* Balances
      const orders = yield* OrderService
      const user = yield* accounts.signIn({
        telegramId: 9_000_001,
        username: "bench_buyer",
        firstName: "Bench",
        photoUrl: null
      })
      yield* balances
        .adjust({ userId: user.id, amount: ORDERS * 1_000_000, reason: "bench funding", key: "bench-fund" })
        .pipe(Effect.orDie)
      yield* Effect.forEach(
        Array.from({ length: ORDERS }, (_, i) => i),
        (i) => orders.create(user.id, { kind: "stars", recipient: `bench_r${i}`, stars: STARS }),
        { concurrency: 8, discard: true }
      )
    }).pipe(Effect.provide(shop), Effect.scoped)
  )
  const placingSeconds = (Date.now() - placingStarted) / 1000

  // The sandbox world (TON emulator, Fragment simulator): owned by this process and joined by the worker
  // over loopback, as a production worker reaches toncenter and fragment.com in other processes;
  // BENCH_WORLD=worker lets the worker own it (both then run on the worker's thread).
  const worldScope = Scope.makeUnsafe()
  if (process.env.BENCH_WORLD !== "worker") {
    await startSandboxWorld(dataDir, BLOCK_SECONDS, worldScope)
  }
  const probePort = await freePort()
  const log = openSync(join(dataDir, "worker.log"), "w")
  // BENCH_NODE_ARGS: extra node flags for the worker, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter((a) => a.length > 0)
  const worker = spawn(NODE, [...nodeArgs, "packages/worker/src/main.ts"], {
    cwd: ROOT,
    env: sandboxWorkerEnv(url, dataDir, BLOCK_SECONDS, probePort, {
      HOT_WALLET_VERSION: wallet,
      ...(batch === undefined ? {} : { HOT_WALLET_BATCH: batch }),
      // Orders carried at once (one claiming loop, so cheap): a batch quoting while one is in flight
      // and the orders of the last ones reading their delivery.
      WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY ?? String(Math.max(4, 4 * Number(batch ?? 1)))
    }),
    stdio: ["ignore", log, log]
  })
  try {
    await waitReady(`http://127.0.0.1:${probePort}/readyz`, worker)
    const readyAt = Date.now()
    const cpuAtReady = { worker: cpuOf(worker.pid ?? 0), world: process.cpuUsage() }
    const world = await worldOf(dataDir)
    if (world === undefined) throw new Error("the worker's sandbox world did not answer")
    const toncenter = new TonClient({ endpoint: world.toncenter, timeout: 30_000 })
    const chain = makeTonBlockchain({
      ...tonCenterClient({ endpoint: world.toncenter, timeout: 30_000 }, "mainnet", "100 millis"),
      network: "sandbox"
    })

    // Until every order has settled (or the time allowed is up).
    const deadline = readyAt + MINUTES * 60_000
    const counts = async () =>
      Effect.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient
          const [row] = yield* sql<{
            completed: bigint
            failed: bigint
            open: bigint
            first: Date | null
            last: Date | null
          }>`
          SELECT count(*) FILTER (WHERE status = 'completed') AS completed,
                 count(*) FILTER (WHERE status = 'failed') AS failed,
                 count(*) FILTER (WHERE status IN ('queued', 'processing')) AS open,
                 min(created_at) AS first, max(completed_at) AS last
          FROM orders`
          return row!
        }).pipe(Effect.provide(PgConnection.layerFromUrl(url, 1)), Effect.scoped)
      )
    let state = await counts()
    let lastPrint = Date.now()
    while (Number(state.open) > 0 && Date.now() < deadline && worker.exitCode === null) {
      await sleep(2000)
      // A busy database may refuse a new connection for a while: the next look counts again.
      state = await counts().catch(() => state)
      if (Date.now() - lastPrint > 30_000) {
        lastPrint = Date.now()
        console.log(
          `  ${setting}: ${state.completed} completed, ${state.failed} failed, ${state.open} open after ${((Date.now() - readyAt) / 1000).toFixed(0)} s`
        )
      }
    }
    const cpu = {
      worker: cpuOf(worker.pid ?? 0) - cpuAtReady.worker,
      world: (({ system, user }) => (user + system) / 1e6)(process.cpuUsage(cpuAtReady.world)),
      database: backendsCpu(name)
    }
    // From the worker's readiness (every order already queued) to the last one completed.
    const seconds = state.last !== null ? (new Date(state.last).getTime() - readyAt) / 1000 : NaN
    const completed = Number(state.completed)
    const batches = await Effect.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient
        const [exists] = yield* sql<{ found: boolean }>`SELECT to_regclass('wallet_payments') IS NOT NULL AS found`
        if (exists?.found !== true) return undefined
        const [row] = yield* sql<{ paid: bigint; count: bigint; largest: number | null }>`
        SELECT (SELECT count(*) FROM wallet_payments WHERE state = 'paid') AS paid,
               count(*) AS count, max(n) AS largest
        FROM (SELECT batch_id, count(*) AS n FROM wallet_payments WHERE batch_id IS NOT NULL GROUP BY batch_id) b`
        return { paid: Number(row?.paid ?? 0), count: Number(row?.count ?? 0), largest: Number(row?.largest ?? 0) }
      }).pipe(Effect.provide(PgConnection.layerFromUrl(url, 1)), Effect.scoped)
    )
    // The world is fresh: every external message of the hot wallet (funded on its first order) is a payment.
    const hot = await Effect.runPromise(
      chain.resolveWallet(sandboxHotWalletPhrase(), { version: wallet as WalletVersion })
    )
    const spent = await feesSince(toncenter, Address.parse(hot.address), 0n)
    return {
      wallet: setting,
      completed,
      failed: Number(state.failed),
      open: Number(state.open),
      seconds,
      placingSeconds,
      perBlock: completed / (seconds / BLOCK_SECONDS),
      feePerOrder: completed > 0 ? Number(fromNano(spent.fees)) / completed : NaN,
      feePerTransfer: spent.transfers > 0 ? Number(fromNano(spent.fees)) / spent.transfers : NaN,
      messages: spent.messages,
      transfers: spent.transfers,
      cpu,
      batches
    }
  } finally {
    worker.kill("SIGTERM")
    await new Promise((r) => (worker.exitCode !== null ? r(undefined) : worker.once("exit", r)))
    // The worker's log outlives the run for a look at its batches.
    copyFileSync(join(dataDir, "worker.log"), join(tmpdir(), `resale-fulfil-${setting.replace(/\W/g, "_")}.log`))
    await Effect.runPromise(dropDatabase(name)).catch(() => undefined)
    await Effect.runPromise(Scope.close(worldScope, Exit.void))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const results: Array<Figures> = []
const refused: Array<string> = []
for (const setting of WALLETS) {
  console.log(`${setting}: ${ORDERS} orders, block interval ${BLOCK_SECONDS} s ...`)
  // A setting this version of the worker does not know (a wallet type still to come) is reported, not fatal.
  await runOne(setting).then(
    (r) => results.push(r),
    (error: unknown) => refused.push(`${setting}: ${String(error)}`)
  )
}
console.log(
  `\nFulfilment benchmark: ${ORDERS} queued stars orders (${STARS} stars each), one hot wallet, sandbox block interval ${BLOCK_SECONDS} s; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`
)
for (const r of results) {
  const [version, batch] = r.wallet.split(":")
  console.log(`${r.wallet} (HOT_WALLET_VERSION=${version}${batch === undefined ? "" : `, HOT_WALLET_BATCH=${batch}`}):`)
  console.log(
    `  ${r.completed} completed, ${r.failed} failed, ${r.open} still open; last completed ${r.seconds.toFixed(0)} s after the worker was ready (all ${ORDERS} queued before it started; placing took ${r.placingSeconds.toFixed(0)} s)`
  )
  console.log(`  ${r.perBlock.toFixed(2)} orders per ${BLOCK_SECONDS} s block interval (target >= 100)`)
  console.log(
    `  fees ${r.feePerOrder.toFixed(6)} TON per completed order, ${r.feePerTransfer.toFixed(6)} TON per payment sent (${r.messages} external messages carrying ${r.transfers} payments)`
  )
  const perOrder = (seconds: number) => `${((1000 * seconds) / Math.max(1, r.completed)).toFixed(1)} ms`
  console.log(
    `  CPU until all settled: worker ${r.cpu.worker.toFixed(1)} s, world ${r.cpu.world.toFixed(1)} s, database ${r.cpu.database.toFixed(1)} s (per completed order ${perOrder(r.cpu.worker)} + ${perOrder(r.cpu.world)} + ${perOrder(r.cpu.database)})`
  )
  if (r.batches !== undefined) {
    console.log(
      `  wallet batches: ${r.batches.paid} payments paid on chain in ${r.batches.count} batches, the largest of ${r.batches.largest}`
    )
  }
}
for (const line of refused) console.log(`not run: ${line}`)
