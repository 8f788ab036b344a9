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
 * The server runs as its production unit runs it (the start bundle, the unit's V8 flags:
 * `--max-semi-space-size=8`, SANDBOX=false, request log on); a sandbox server sets up the funded
 * user and its API key first.
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
import { writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { ac, alternate, type Comparison, hasWrk, printComparisons, rssPeaks, sampledOn, wrk } from "./compare.ts"
import {
  ADMIN_TOKEN,
  apart,
  autocannon,
  BOT_TOKEN,
  freePort,
  fundedApiKey,
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
      env: {
        ...process.env,
        PORT: String(setupPort),
        DATABASE_URL: dbUrl,
        ADMIN_TOKEN,
        TELEGRAM_BOT_TOKEN: BOT_TOKEN,
        SANDBOX: "true",
        PUBLIC_URL: setupBase,
        WORKER: "false",
        LOG_REQUESTS: "false"
      },
      stdio: ["ignore", "ignore", "inherit"]
    })
    children.push(setup)
    await waitFor(`${setupBase}/healthz`, setup)
    const key = await fundedApiKey(setupBase, ADMIN_TOKEN)
    await stop(setup)

    // The measured server runs as its production unit runs it: the start bundle, with the unit's V8
    // flags, SANDBOX=false, the request log on (to a discarded stdout), the worker apart.
    const { child: server, base } = await productionServer(
      ROOT,
      dbUrl,
      { WORKER: process.env.BENCH_WORKER ?? "false" },
      [...START_FLAGS, ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [])]
    )
    children.push(server)
    const pricingBody = await (await fetch(`${base}/v2/api/pricing`)).text()

    const barePort = await freePort()
    const bare = spawn(
      NODE,
      [...START_FLAGS, join(ROOT, "bench/http/bare-server.ts"), String(barePort), pricingBody, dbUrl, "false"],
      { cwd: ROOT, stdio: "ignore" }
    )
    children.push(bare)
    await waitFor(`http://127.0.0.1:${barePort}/v2/api/pricing`, bare)
    const bareBase = `http://127.0.0.1:${barePort}`

    const sampled = <A>(run: Promise<A>, pid = server.pid!) => sampledOn(pid, run)
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
    for (
      let round = 0;
      round < ROUNDS && ["pricing", "wrk", "pricing-line"].some((phase) => PHASES.has(phase));
      round++
    ) {
      const { child: app, base: appBase } = await productionServer(ROOT, dbUrl, {}, START_FLAGS)
      const port = await freePort()
      const plain = spawn(NODE, [...START_FLAGS, join(ROOT, "bench/http/bare-server.ts"), String(port), pricingBody], {
        cwd: ROOT,
        stdio: "ignore"
      })
      pricingBare = `http://127.0.0.1:${port}`
      try {
        await waitFor(`${pricingBare}/v2/api/pricing`, plain)
        const pair = { base: plain.pid!, app: app.pid! }
        await apart([plain.pid!, app.pid!], async (cores) => {
          if (PHASES.has("pricing"))
            merged(
              await alternate(
                {
                  name: "GET /v2/api/pricing, autocannon, 50 connections",
                  unit: "req/s",
                  baseName: "bare node:http",
                  target: 0.8
                },
                pair,
                async (s) => ac(await cannon(`${pricingBare}/v2/api/pricing`, {}, s)),
                async (s) => ac(await sampled(cannon(`${appBase}/v2/api/pricing`, {}, s), app.pid!)),
                { rounds: 1, seconds: SECONDS }
              )
            )
          if (hasWrk && PHASES.has("wrk"))
            merged(
              await alternate(
                {
                  name: "GET /v2/api/pricing, wrk, 50 connections",
                  unit: "req/s",
                  baseName: "bare node:http",
                  target: 0.8
                },
                pair,
                (s) => wrk(`${pricingBare}/v2/api/pricing`, 50, s, cores),
                (s) => sampled(wrk(`${appBase}/v2/api/pricing`, 50, s, cores), app.pid!),
                { rounds: 1, seconds: SECONDS }
              )
            )
          if (PHASES.has("pricing-line"))
            merged(
              await alternate(
                {
                  name: "GET /v2/api/pricing vs a bare server with an access line, autocannon",
                  unit: "req/s",
                  baseName: "bare node:http + line",
                  target: 0.8
                },
                pair,
                async (s) => ac(await cannon(`${pricingBare}/logged/v2/api/pricing`, {}, s)),
                async (s) => ac(await sampled(cannon(`${appBase}/v2/api/pricing`, {}, s), app.pid!)),
                { rounds: 1, seconds: SECONDS }
              )
            )
          pricingPinned = cores !== undefined
        })
      } finally {
        await Promise.all([stop(app), stop(plain)])
      }
    }
    comparisons.push(...pricing.values())

    // 2. balance: the same two queries through the same driver
    const keyed = { headers: { "x-api-key": key } }
    if (PHASES.has("balance"))
      comparisons.push(
        await alternate(
          {
            name: "GET /v2/api/balance, autocannon, 50 connections",
            unit: "req/s",
            baseName: "bare node:http, same 2 queries",
            target: 0.7
          },
          pids,
          async (s) => ac(await cannon(`${bareBase}/v2/api/balance`, keyed, s)),
          async (s) => ac(await sampled(cannon(`${base}/v2/api/balance`, keyed, s))),
          { rounds: ROUNDS, seconds: SECONDS }
        )
      )

    // 3. orders, against the statements the server runs for one, in pgbench: the API key's user
    // (`Users.byApiKeyHash`), then the order's one statement (`Orders.insertCharged`: the account row
    // locked while the quoted price list is current, the order, its ledger entry, the balance moved,
    // the balance after answered), each on its own as the server sends them (no transaction around).
    const userId = execFileSync("psql", [dbUrl, "-tAc", "SELECT id FROM users WHERE username = 'bench'"])
      .toString()
      .trim()
    const hash = createHash("sha256").update(key).digest("hex")
    const prices = execFileSync("psql", [
      dbUrl,
      "-tAc",
      "SELECT coalesce((SELECT ARRAY[star_price_uzs, premium_3_month_uzs, premium_6_month_uzs, premium_12_month_uzs]::bigint[] FROM prices), ARRAY[230, 170000, 230000, 410000]::bigint[])"
    ])
      .toString()
      .trim()
    const price = 50 * Number(prices.slice(1).split(",")[0])
    const script = join(tmpdir(), `${name}.pgbench.sql`)
    writeFileSync(
      script,
      `\\set uid ${userId}
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
`
    )
    // Warmed up for a whole run: on a slower machine the server's first rounds were its slowest (372
    // and 414, then 504-520 orders/s), its code and heap still settling; pgbench gets the same.
    if (PHASES.has("orders"))
      comparisons.push(
        await alternate(
          {
            name: "POST /v2/api/stars/buy, 32 connections",
            unit: "orders/s",
            baseName: "pgbench, same SQL (tx/s)",
            target: 0.9
          },
          { base: undefined, app: server.pid! },
          async (s) => {
            const { stdout } = await execFileAsync("pgbench", [
              "-n",
              "-c",
              "32",
              "-j",
              "2",
              "-T",
              String(s),
              "-f",
              script,
              dbUrl
            ])
            return { rate: Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? NaN), requests: 0 }
          },
          async (s) => {
            const orders = await sampled(
              cannon(
                `${base}/v2/api/stars/buy`,
                {
                  method: "POST",
                  headers: { "content-type": "application/json", "x-api-key": key },
                  body: JSON.stringify({ username: "bench_friend", amount: 50 }),
                  connections: 32
                },
                s
              )
            )
            return { rate: orders["2xx"] / s, requests: orders["2xx"] + orders.non2xx }
          },
          { rounds: ROUNDS, seconds: SECONDS, warmup: Math.max(2, SECONDS) }
        )
      )

    console.log(
      `\nHTTP benchmark (${SECONDS}s per run, ${ROUNDS} alternating rounds; 2 cores shared by server, load generator and PostgreSQL; worker ${process.env.BENCH_WORKER === "true" ? "in" : "out of"} process; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")})`
    )
    printComparisons(comparisons)
    console.log(
      `pricing phases: a new pair of servers each round, ${pricingPinned ? "on core 0, the load generator on the others (BENCH_PIN=false: unpinned)" : "unpinned"}`
    )
    console.log(`server non-2xx answers and errors under load: ${non2xx}`)
    console.log(`server RSS peak under load: ${rssPeaks.overall.toFixed(0)} MB (target < 250 MB)`)
  } finally {
    // Waited for, so that a server under --cpu-prof (BENCH_NODE_ARGS) has written its profile.
    await Promise.all(children.map(stop))
    await Effect.runPromise(dropDatabase(name)).catch(() => undefined)
  }
}

await main()
