/**
 * Debits per second through the store, next to pgbench running the same statements on the same
 * database in the same run: `npm run bench:ledger`. Prints figures; never fails on time.
 *
 * - "service": the core's Balances.adjust (a debit with its notification: BEGIN, SELECT user,
 *   ledger post, outbox insert, COMMIT) over PgStore, against pgbench with that transaction;
 * - "port": PgLedger.post alone (one autocommit statement), against pgbench with that statement.
 * Every debit hits one account row (the contended case). Settings: BENCH_SECONDS (default 10),
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432), PGBENCH (default /usr/bin/pgbench).
 */
import { NodeRuntime } from "@effect/platform-node"
import { Balances, balanceMovement, type SignedUzs, type UserId } from "@resale/core"
import { Ledger, Users } from "@resale/core/ports"
import { Migrations, PgConnection, PgStore } from "@resale/store"
import {
  createDatabase,
  databaseUrl,
  dropDatabase,
  dropStale,
  serverUrl,
  uniqueName
} from "@resale/store/testing/TestDatabase.ts"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { portScript, serviceScript } from "./pgbenchScripts.ts"

const seconds = Number(process.env["BENCH_SECONDS"] ?? 10)
const pgbenchPath = process.env["PGBENCH"] ?? "/usr/bin/pgbench"
const concurrencies = [1, 16] as const
const TARGET = 0.7

interface Figure {
  readonly scenario: "service" | "port"
  readonly concurrency: number
  readonly store: number
  readonly pgbench: number
}

/** Runs `op` from `concurrency` fibers for `duration` seconds; operations per second. */
const throughput = <R>(op: Effect.Effect<unknown, unknown, R>, concurrency: number, duration: number) =>
  Effect.gen(function* () {
    let done = 0
    const start = performance.now()
    const deadline = start + duration * 1000
    const worker = Effect.gen(function* () {
      while (performance.now() < deadline) {
        yield* op
        done++
      }
    })
    yield* Effect.all(
      Array.from({ length: concurrency }, () => worker),
      { concurrency: "unbounded", discard: true }
    )
    return done / ((performance.now() - start) / 1000)
  })

/** pgbench's own figure ("tps = …, without initial connection time") for a custom script. */
const pgbench = (database: string, script: string, clients: number, duration: number) =>
  Effect.tryPromise(() => {
    const dir = mkdtempSync(join(tmpdir(), "resale-bench-"))
    const file = join(dir, "debit.sql")
    writeFileSync(file, script)
    const url = new URL(serverUrl())
    const args = [
      "-n",
      "-M",
      "prepared",
      "-f",
      file,
      "-c",
      String(clients),
      "-j",
      String(Math.min(clients, cpus().length)),
      "-T",
      String(duration),
      "-h",
      url.hostname,
      "-p",
      url.port || "5432",
      "-U",
      decodeURIComponent(url.username || "postgres"),
      database
    ]
    const env = { ...process.env, ...(url.password === "" ? {} : { PGPASSWORD: decodeURIComponent(url.password) }) }
    return new Promise<number>((resolve, reject) =>
      execFile(pgbenchPath, args, { env }, (error, stdout, stderr) => {
        rmSync(dir, { recursive: true, force: true })
        const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1]
        if (error !== null || tps === undefined) reject(new Error(`pgbench failed: ${error?.message ?? ""}\n${stderr}`))
        else resolve(Number(tps))
      })
    )
  })

const pad = (text: string, width: number) => text.padStart(width)
const fmt = (n: number) => n.toFixed(0)

const printTable = (figures: ReadonlyArray<Figure>) => {
  const lines = [
    `${"scenario".padEnd(9)}${pad("clients", 8)}${pad("store tx/s", 12)}${pad("pgbench tps", 13)}${pad("ratio", 8)}`,
    ...figures.map(
      (f) =>
        `${f.scenario.padEnd(9)}${pad(String(f.concurrency), 8)}${pad(fmt(f.store), 12)}${pad(fmt(f.pgbench), 13)}${pad(
          (f.store / f.pgbench).toFixed(2),
          8
        )}`
    )
  ]
  console.log(`\n${lines.join("\n")}\n\nratio = store / pgbench on the same statements (target >= ${TARGET})`)
}

const program = Effect.gen(function* () {
  // Databases of runs killed before their cleanup (old enough not to belong to a run in progress).
  yield* dropStale("resale_bench").pipe(Effect.ignore)
  const name = uniqueName("resale_bench")
  yield* Effect.acquireRelease(createDatabase(name), () => Effect.orDie(dropDatabase(name)))
  const url = databaseUrl(name)
  const setup = Layer.fresh(PgConnection.layerFromUrl(url, 1))
  yield* Migrations.run.pipe(Effect.provide(setup))

  // One account with plenty of so'm: every debit of 1 succeeds, all of them on the same row.
  const { userId, version } = yield* Effect.gen(function* () {
    const sql = yield* SqlClient
    const user = yield* Users.use((u) =>
      u.upsertTelegram({ telegramId: 1, username: "bench", firstName: "Bench", photoUrl: null }, new Date())
    )
    yield* Ledger.use((l) =>
      l.post(balanceMovement({ userId: user.id, amount: 1e12 as SignedUzs, cause: "adjust", causeId: "bench-funding" }))
    )
    const [row] = yield* sql<{ version: string }>`SELECT version()`
    return { userId: user.id, version: row?.version ?? "" }
  }).pipe(Effect.provide(PgStore.layer.pipe(Layer.provideMerge(setup))))

  console.log(`ledger debit benchmark: ${seconds} s per figure, ${cpus().length} CPUs, ${version.split(",")[0]}`)
  let key = 0
  const serviceDebit = (id: UserId) =>
    Balances.use((b) => b.adjust({ userId: id, amount: -1, reason: "bench", key: `bench-${++key}` })).pipe(Effect.orDie)
  const portDebit = (id: UserId) =>
    Ledger.use((l) =>
      l.post(
        balanceMovement({
          userId: id,
          amount: -1 as SignedUzs,
          cause: "adjust",
          causeId: `bench-${++key}`,
          note: "bench"
        })
      )
    ).pipe(Effect.orDie)

  const figures: Array<Figure> = []
  for (const concurrency of concurrencies) {
    const stack = Balances.layer.pipe(
      Layer.provideMerge(PgStore.layer),
      Layer.provideMerge(Layer.fresh(PgConnection.layerFromUrl(url, concurrency)))
    )
    for (const scenario of ["service", "port"] as const) {
      const op: Effect.Effect<unknown, never, Balances | Ledger> =
        scenario === "service" ? serviceDebit(userId) : portDebit(userId)
      const store = yield* Effect.gen(function* () {
        yield* throughput(op, concurrency, 1) // warm-up: connections, prepared statements, JIT
        return yield* throughput(op, concurrency, seconds)
      }).pipe(Effect.provide(stack))
      const script = scenario === "service" ? serviceScript(userId) : portScript(userId)
      const bench = yield* pgbench(name, script, concurrency, seconds)
      figures.push({ scenario, concurrency, store, pgbench: bench })
      console.log(`  ${scenario} x${concurrency}: store ${fmt(store)} tx/s, pgbench ${fmt(bench)} tps`)
    }
  }

  // The figures only count if the money is right: the balance equals its entries.
  const check = yield* Effect.gen(function* () {
    const sql = yield* SqlClient
    const [row] = yield* sql<{ balance: bigint; sum: bigint; entries: bigint }>`
      SELECT a.balance_uzs AS balance, (SELECT sum(amount_uzs) FROM ledger_entries WHERE user_id = a.user_id)::bigint AS sum,
             (SELECT count(*) FROM ledger_entries WHERE user_id = a.user_id) AS entries
      FROM accounts a WHERE a.user_id = ${userId}`
    return row!
  }).pipe(Effect.provide(setup))
  printTable(figures)
  console.log(
    `ledger check: ${check.entries} entries, balance ${check.balance} ${check.balance === check.sum ? "=" : "!="} sum of entries ${check.sum}`
  )
  if (check.balance !== check.sum) return yield* Effect.die(new Error("balance and ledger disagree"))
})

NodeRuntime.runMain(Effect.scoped(program))
