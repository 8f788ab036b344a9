/**
 * HTTP benchmark (prints figures; never pass/fail). Every phase alternates the service and its baseline
 * over ROUNDS rounds, so a shared machine's drift falls on both sides, and compares the medians:
 * 1. GET /v2/api/pricing req/s against a bare node:http server serving the same JSON, with autocannon
 *    and with wrk (target >= 0.8x with both);
 * 2. GET /v2/api/balance, an API-key route through the whole HttpApi pipeline (validation, key lookup,
 *    balance read, request log, metrics), against the bare server running the same two queries through
 *    the same PostgreSQL driver (target >= 0.7x);
 * 3. POST /v2/api/stars/buy orders/s at 32 connections against pgbench running the same SQL
 *    transaction (target >= 0.9x);
 * 4. the server's RSS peak under load (target < 250 MB).
 * The server runs as `npm start` runs it in production (the start bundle, `--max-semi-space-size=4`,
 * SANDBOX=false, request log on); a sandbox server sets up the funded user and its API key first.
 * The worker runs in its own process (WORKER=false), as when deployed apart: pgbench runs only the
 * order transaction, so the in-process worker fulfilling the orders would be work pgbench does not do
 * (BENCH_WORKER=true keeps it in).
 * Needs PostgreSQL at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432) and pgbench.
 * Needs wrk on PATH for the wrk rows (skipped when missing).
 * The pricing phases start a new pair of servers (the service and the bare one) for each round, and
 * run them on the first core and the load generator on the others (`apart`: BENCH_PIN=false leaves
 * them unpinned); the other phases share all cores with PostgreSQL.
 * BENCH_SYS=true also prints each run's system CPU per request (the kernel's share: sockets).
 * Run: node bench/http/run.ts [seconds per run, default 10] [rounds, default 3]
 */
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import {
  ADMIN_TOKEN,
  apart,
  autocannon,
  BOT_TOKEN,
  cpuSeconds,
  freePort,
  fundedApiKey,
  generatorThreads,
  median,
  NODE,
  productionServer,
  ROOT,
  startFlags,
  stop,
  waitFor
} from "./support.ts"

const execFileAsync = promisify(execFile)
const SECONDS = Number(process.argv[2] ?? 10)
const ROUNDS = Number(process.argv[3] ?? 3)
const START_FLAGS = startFlags(ROOT)
/** BENCH_PHASES=balance,orders runs only those phases (pricing, wrk, pricing-line, balance, orders), e.g. under --cpu-prof. */
const PHASES = new Set((process.env.BENCH_PHASES ?? "pricing,wrk,pricing-line,balance,orders").split(","))

/** Lowest and highest resale/bare ratio over the rounds. */
const ratioRange = (app: Array<number>, bare: Array<number>) => {
  const ratios = app.map((value, i) => value / bare[i]!)
  return `${Math.min(...ratios).toFixed(2)}x-${Math.max(...ratios).toFixed(2)}x`
}

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))
  return line ? Number(line.replace(/\D+/g, "")) / 1024 : NaN
}

/** System CPU seconds alone. */
const systemSeconds = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[12]) / 100

const sampleRss = (pid: number) => {
  let peak = 0
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 200)
  return () => {
    clearInterval(timer)
    return peak
  }
}

const hasWrk = (() => {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" })
    return true
  } catch (error) {
    // wrk prints its version and exits 1.
    return (error as { status?: number }).status === 1
  }
})()

/** wrk's req/s, on `cores` (`apart`) with a thread per core, or anywhere with one per core of the machine. */
const wrk = async (url: string, connections: number, seconds: number, cores: string | undefined) => {
  const args = [`-t${generatorThreads(cores)}`, `-c${connections}`, `-d${seconds}s`, url]
  const { stdout } = await (cores === undefined ? execFileAsync("wrk", args) : execFileAsync("taskset", ["-c", cores, "wrk", ...args]))
  return {
    rate: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN),
    requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0)
  }
}

interface Comparison {
  readonly name: string
  readonly unit: string
  readonly app: Array<number>
  readonly base: Array<number>
  readonly baseName: string
  readonly target: number
  /** CPU microseconds per request of the service and of the baseline, per round (when measured). */
  readonly appCpu: Array<number>
  readonly baseCpu: Array<number>
  /** The server's RSS peak during the phase, MB. */
  rss: number
}

/** A load run's rate, and the CPU microseconds per request the process `pid` spent on it. */
const measured = async (pid: number | undefined, run: () => Promise<{ rate: number; requests: number }>, cpu: Array<number>) => {
  const before = pid === undefined ? 0 : cpuSeconds(pid)
  const sysBefore = pid === undefined ? 0 : systemSeconds(pid)
  const { rate, requests } = await run()
  if (pid !== undefined && requests > 0) {
    cpu.push(((cpuSeconds(pid) - before) * 1e6) / requests)
    if (process.env.BENCH_SYS === "true") console.log(`  pid ${pid}: system ${(((systemSeconds(pid) - sysBefore) * 1e6) / requests).toFixed(1)} us per request`)
  }
  return rate
}

const ac = (result: { requests: { average: number }; "2xx": number; non2xx: number }) => ({
  rate: result.requests.average,
  requests: result["2xx"] + result.non2xx
})

/** The server's RSS peak since the current phase's measured rounds began, MB. */
let phasePeak = 0

type Load = (seconds: number) => Promise<{ rate: number; requests: number }>

/** Runs `base` and `app` alternately, `rounds` times each, after one short warm-up of each. */
const alternate = async (
  comparison: Omit<Comparison, "app" | "base" | "appCpu" | "baseCpu" | "rss">,
  pids: { readonly base: number | undefined; readonly app: number },
  base: Load,
  app: Load,
  rounds = ROUNDS
): Promise<Comparison> => {
  await base(2)
  await app(2)
  phasePeak = 0
  const result: Comparison = { ...comparison, app: [], base: [], appCpu: [], baseCpu: [], rss: 0 }
  for (let round = 0; round < rounds; round++) {
    result.base.push(await measured(pids.base, () => base(SECONDS), result.baseCpu))
    result.app.push(await measured(pids.app, () => app(SECONDS), result.appCpu))
  }
  result.rss = phasePeak
  return result
}

const main = async () => {
  // The bundle `npm start` runs, built now when stale so that no measured start includes a build.
  const { build, freshBuild } = await import("../../deploy/bundle.mjs")
  if (freshBuild() === undefined) await build()
  const name = uniqueName("resale_bench")
  await Effect.runPromise(createDatabase(name))
  const dbUrl = databaseUrl(name)
  const children: Array<ChildProcess> = []
  try {
    // Setup (a funded user with an API key) through a sandbox server, which has the sign-in and top-up
    // flows; it is stopped before anything is measured.
    const setupPort = await freePort()
    const setupBase = `http://127.0.0.1:${setupPort}`
    const setup = spawn(NODE, [join(ROOT, "deploy/start.mjs"), "server"], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(setupPort), DATABASE_URL: dbUrl, ADMIN_TOKEN, TELEGRAM_BOT_TOKEN: BOT_TOKEN, SANDBOX: "true", PUBLIC_URL: setupBase, WORKER: "false", LOG_REQUESTS: "false" },
      stdio: ["ignore", "ignore", "inherit"]
    })
    children.push(setup)
    await waitFor(`${setupBase}/healthz`, setup)
    const key = await fundedApiKey(setupBase, ADMIN_TOKEN)
    await stop(setup)

    // The measured server runs as `npm start` runs it in production: the start bundle, with the start
    // commands' V8 flags, SANDBOX=false, the request log on (to a discarded stdout), the worker apart.
    const { child: server, base } = await productionServer(
      ROOT,
      dbUrl,
      { WORKER: process.env.BENCH_WORKER ?? "false" },
      [...START_FLAGS, ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [])]
    )
    children.push(server)
    const pricingBody = await (await fetch(`${base}/v2/api/pricing`)).text()

    const barePort = await freePort()
    const bare = spawn(NODE, [...START_FLAGS, join(ROOT, "bench/http/bare-server.ts"), String(barePort), pricingBody, dbUrl, "false"], { cwd: ROOT, stdio: "ignore" })
    children.push(bare)
    await waitFor(`http://127.0.0.1:${barePort}/v2/api/pricing`, bare)
    const bareBase = `http://127.0.0.1:${barePort}`

    let rssPeak = 0
    const sampled = async <A>(run: Promise<A>, pid = server.pid!) => {
      const stop = sampleRss(pid)
      try {
        return await run
      } finally {
        phasePeak = Math.max(phasePeak, stop())
        rssPeak = Math.max(rssPeak, phasePeak)
      }
    }
    const comparisons: Array<Comparison> = []
    const pids = { base: bare.pid!, app: server.pid! }
    let non2xx = 0
    let pricingPinned = false
    let pricingBare = bareBase
    const cannon = async (url: string, options: Record<string, unknown>, seconds: number) => {
      const result = await autocannon({ url, connections: 50, pipelining: 1, ...options, duration: seconds })
      if (!url.startsWith(bareBase) && !url.startsWith(pricingBare)) non2xx += result.non2xx + result.errors
      return result
    }

    // 1. pricing, autocannon then wrk, and 1b. against a bare server that also writes an access line and
    // the same headers (not a target: it shows how much of the difference is the line every answer
    // has). Each round on a pair of processes of its own, a new server and a new bare server: two
    // processes of the same code differed by up to 14% for as long as they ran, so one pair per run
    // measured its pair as much as the code. The pair apart from the load generator (`apart`).
    const pricing = new Map<string, Comparison>()
    const merged = (comparison: Comparison) => {
      const seen = pricing.get(comparison.name)
      if (seen === undefined) return void pricing.set(comparison.name, comparison)
      seen.app.push(...comparison.app)
      seen.base.push(...comparison.base)
      seen.appCpu.push(...comparison.appCpu)
      seen.baseCpu.push(...comparison.baseCpu)
      seen.rss = Math.max(seen.rss, comparison.rss)
    }
    for (let round = 0; round < ROUNDS && ["pricing", "wrk", "pricing-line"].some((phase) => PHASES.has(phase)); round++) {
      const { child: app, base: appBase } = await productionServer(ROOT, dbUrl, {}, START_FLAGS)
      const port = await freePort()
      const plain = spawn(NODE, [...START_FLAGS, join(ROOT, "bench/http/bare-server.ts"), String(port), pricingBody], { cwd: ROOT, stdio: "ignore" })
      pricingBare = `http://127.0.0.1:${port}`
      try {
        await waitFor(`${pricingBare}/v2/api/pricing`, plain)
        const pair = { base: plain.pid!, app: app.pid! }
        await apart([plain.pid!, app.pid!], async (cores) => {
          if (PHASES.has("pricing")) merged(await alternate(
            { name: "GET /v2/api/pricing, autocannon, 50 connections", unit: "req/s", baseName: "bare node:http", target: 0.8 },
            pair,
            async (s) => ac(await cannon(`${pricingBare}/v2/api/pricing`, {}, s)),
            async (s) => ac(await sampled(cannon(`${appBase}/v2/api/pricing`, {}, s), app.pid!)),
            1
          ))
          if (hasWrk && PHASES.has("wrk")) merged(await alternate(
            { name: "GET /v2/api/pricing, wrk, 50 connections", unit: "req/s", baseName: "bare node:http", target: 0.8 },
            pair,
            (s) => wrk(`${pricingBare}/v2/api/pricing`, 50, s, cores),
            (s) => sampled(wrk(`${appBase}/v2/api/pricing`, 50, s, cores), app.pid!),
            1
          ))
          if (PHASES.has("pricing-line")) merged(await alternate(
            { name: "GET /v2/api/pricing vs a bare server with an access line, autocannon", unit: "req/s", baseName: "bare node:http + line", target: 0.8 },
            pair,
            async (s) => ac(await cannon(`${pricingBare}/logged/v2/api/pricing`, {}, s)),
            async (s) => ac(await sampled(cannon(`${appBase}/v2/api/pricing`, {}, s), app.pid!)),
            1
          ))
          pricingPinned = cores !== undefined
        })
      } finally {
        await Promise.all([stop(app), stop(plain)])
      }
    }
    comparisons.push(...pricing.values())

    // 2. balance: the same two queries through the same driver
    const keyed = { headers: { "x-api-key": key } }
    if (PHASES.has("balance")) comparisons.push(await alternate(
      { name: "GET /v2/api/balance, autocannon, 50 connections", unit: "req/s", baseName: "bare node:http, same 2 queries", target: 0.7 },
      pids,
      async (s) => ac(await cannon(`${bareBase}/v2/api/balance`, keyed, s)),
      async (s) => ac(await sampled(cannon(`${base}/v2/api/balance`, keyed, s)))
    ))

    // 3. orders, against the statements the server runs for one, in pgbench: the API key's user
    // (`Users.byApiKeyHash`), then the order's one statement (`Orders.insertCharged`: the account row
    // locked while the quoted price list is current, the order, its ledger entry, the balance moved,
    // the balance after answered), each on its own as the server sends them (no transaction around).
    const userId = execFileSync("psql", [dbUrl, "-tAc", "SELECT id FROM users WHERE username = 'bench'"]).toString().trim()
    const hash = createHash("sha256").update(key).digest("hex")
    const prices = execFileSync("psql", [dbUrl, "-tAc",
      "SELECT coalesce((SELECT ARRAY[star_price_uzs, premium_3_month_uzs, premium_6_month_uzs, premium_12_month_uzs]::bigint[] FROM prices), ARRAY[230, 170000, 230000, 410000]::bigint[])"
    ]).toString().trim()
    const price = 50 * Number(prices.slice(1).split(",")[0])
    const script = join(tmpdir(), `${name}.pgbench.sql`)
    writeFileSync(script, `\\set uid ${userId}
SELECT id, telegram_id, username, first_name, photo_url, tier, api_key_hash IS NOT NULL AS has_api_key, bot_chat_id, created_at FROM users WHERE api_key_hash = '${hash}';
WITH account AS (
  SELECT balance_uzs FROM accounts WHERE user_id = :uid AND coalesce(
    (SELECT ARRAY[star_price_uzs, premium_3_month_uzs, premium_6_month_uzs, premium_12_month_uzs]::bigint[] FROM prices),
    ARRAY[230, 170000, 230000, 410000]::bigint[]) = '${prices}'::bigint[] FOR UPDATE
), placed AS (
  INSERT INTO orders (user_id, recipient, kind, item, price_uzs, status, created_at, updated_at)
  SELECT :uid, 'bench_friend', 'stars', '{"kind":"stars","stars":50}'::jsonb, ${price}, 'queued', now(), now()
  FROM account WHERE balance_uzs - ${price} >= 0 RETURNING *
), entry AS (
  INSERT INTO ledger_entries (user_id, amount_uzs, cause, cause_id, note, balance_after_uzs)
  SELECT placed.user_id, -placed.price_uzs, 'order', placed.id::text, NULL, account.balance_uzs - placed.price_uzs
  FROM placed, account RETURNING cause_id, balance_after_uzs
), moved AS (
  UPDATE accounts SET balance_uzs = entry.balance_after_uzs FROM entry WHERE accounts.user_id = :uid
)
SELECT placed.*, entry.cause_id AS charge_cause_id, entry.balance_after_uzs AS charge_balance_after_uzs FROM placed, entry;
`)
    if (PHASES.has("orders")) comparisons.push(await alternate(
      { name: "POST /v2/api/stars/buy, 32 connections", unit: "orders/s", baseName: "pgbench, same SQL (tx/s)", target: 0.9 },
      { base: undefined, app: server.pid! },
      async (s) => {
        const { stdout } = await execFileAsync("pgbench", ["-n", "-c", "32", "-j", "2", "-T", String(s), "-f", script, dbUrl])
        return { rate: Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? NaN), requests: 0 }
      },
      async (s) => {
        const orders = await sampled(cannon(`${base}/v2/api/stars/buy`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key },
          body: JSON.stringify({ username: "bench_friend", amount: 50 }),
          connections: 32
        }, s))
        return { rate: orders["2xx"] / s, requests: orders["2xx"] + orders.non2xx }
      }
    ))

    const fmt = (n: number) => n.toFixed(0)
    const runs = (values: Array<number>) => values.map(fmt).join(", ")
    console.log(`\nHTTP benchmark (${SECONDS}s per run, ${ROUNDS} alternating rounds; 2 cores shared by server, load generator and PostgreSQL; worker ${process.env.BENCH_WORKER === "true" ? "in" : "out of"} process; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")})`)
    for (const c of comparisons) {
      console.log(`${c.name}:`)
      console.log(`  ${c.baseName.padEnd(34)} ${fmt(median(c.base))} ${c.unit}  (median of ${runs(c.base)})`)
      console.log(`  ${"resale server".padEnd(34)} ${fmt(median(c.app))} ${c.unit}  (median of ${runs(c.app)})`)
      console.log(`  ${"ratio".padEnd(34)} ${(median(c.app) / median(c.base)).toFixed(2)}x of medians, ${ratioRange(c.app, c.base)} by round; target >= ${c.target}x`)
      if (c.appCpu.length > 0) {
        const base = c.baseCpu.length > 0 ? `, baseline ${fmt(median(c.baseCpu))} us` : ""
        console.log(`  ${"CPU per request".padEnd(34)} server ${fmt(median(c.appCpu))} us${base} (user + system, median of rounds)`)
      }
      console.log(`  ${"server RSS peak".padEnd(34)} ${fmt(c.rss)} MB`)
    }
    console.log(`pricing phases: a new pair of servers each round, ${pricingPinned ? "on core 0, the load generator on the others (BENCH_PIN=false: unpinned)" : "unpinned"}`)
    console.log(`server non-2xx answers and errors under load: ${non2xx}`)
    console.log(`server RSS peak under load: ${fmt(rssPeak)} MB (target < 250 MB)`)
  } finally {
    // Waited for, so that a server under --cpu-prof (BENCH_NODE_ARGS) has written its profile.
    await Promise.all(children.map(stop))
    await Effect.runPromise(dropDatabase(name)).catch(() => undefined)
  }
}

await main()
