/**
 * HTTP benchmark (prints figures; never pass/fail):
 * 1. GET /v2/api/pricing req/s against a bare node:http server serving the same JSON (target >= 0.6x),
 *    the two alternating over three rounds;
 * 2. POST /v2/api/stars/buy orders/s at 32 connections against pgbench running the same SQL
 *    transaction (target >= 0.6x);
 * 3. for reference (no target), GET /v2/api/balance: an API-key route through the whole HttpApi
 *    pipeline (validation, key lookup, balance read), as most routes are;
 * 4. the server's RSS under load.
 * The worker runs in its own process (WORKER=false), as when deployed apart: pgbench runs only the
 * order transaction, so the in-process worker fulfilling the orders would be work pgbench does not do
 * (BENCH_WORKER=true keeps it in).
 * Needs PostgreSQL at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432) and pgbench.
 * Run: node bench/http/run.ts [seconds per phase, default 10]
 */
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { createHash, createHmac } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const autocannon = createRequire(import.meta.url)("autocannon") as (options: Record<string, unknown>) => Promise<{
  requests: { average: number }
  non2xx: number
  errors: number
  "2xx": number
  duration: number
}>

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const NODE = join(ROOT, "node_modules/.bin/node")
const SECONDS = Number(process.argv[2] ?? 10)
const BOT_TOKEN = "777:bench-bot-token"
const ADMIN_TOKEN = "bench-admin-token"
const PRICING_ROUNDS = 3

const median = (values: Array<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Lowest and highest resale/bare ratio over the rounds. */
const ratioRange = (app: Array<number>, bare: Array<number>) => {
  const ratios = app.map((value, i) => value / bare[i]!)
  return `${Math.min(...ratios).toFixed(2)}x-${Math.max(...ratios).toFixed(2)}x`
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer()
    s.listen(0, "127.0.0.1", () => {
      const a = s.address()
      s.close(() => resolve(typeof a === "object" && a ? a.port : 0))
    })
  })

const waitFor = async (url: string, child: ChildProcess) => {
  for (let i = 0; i < 200 && child.exitCode === null; i++) {
    if (await fetch(url, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false)) return
    await new Promise((r) => setTimeout(r, 150))
  }
  throw new Error(`${url} did not come up`)
}

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))
  return line ? Number(line.replace(/\D+/g, "")) / 1024 : NaN
}

const sampleRss = (pid: number) => {
  let peak = 0
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 200)
  return () => {
    clearInterval(timer)
    return peak
  }
}

const login = (fields: Record<string, string>) => {
  const check = Object.keys(fields).sort().map((k) => `${k}=${fields[k]}`).join("\n")
  const secret = createHash("sha256").update(BOT_TOKEN).digest()
  return new URLSearchParams({ ...fields, hash: createHmac("sha256", secret).update(check).digest("hex") })
}

const main = async () => {
  const name = uniqueName("resale_bench")
  await Effect.runPromise(createDatabase(name))
  const dbUrl = databaseUrl(name)
  const children: Array<ChildProcess> = []
  try {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const server = spawn(NODE, ["packages/http/src/main.ts"], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), DATABASE_URL: dbUrl, ADMIN_TOKEN, TELEGRAM_BOT_TOKEN: BOT_TOKEN, SANDBOX: "true", PUBLIC_URL: base, WORKER: process.env.BENCH_WORKER ?? "false" },
      stdio: ["ignore", "ignore", "inherit"]
    })
    children.push(server)
    await waitFor(`${base}/healthz`, server)
    const pricingBody = await (await fetch(`${base}/v2/api/pricing`)).text()

    const barePort = await freePort()
    const bare = spawn(NODE, [join(ROOT, "bench/http/bare-server.ts"), String(barePort), pricingBody], { stdio: "ignore" })
    children.push(bare)
    await waitFor(`http://127.0.0.1:${barePort}/v2/api/pricing`, bare)

    // 1. pricing: bare and resale alternate in rounds, so a shared machine's drift (other tenants,
    // frequency changes) falls on both sides; the ratio is of the medians.
    const load = { connections: 50, duration: SECONDS, pipelining: 1 }
    const bareUrl = `http://127.0.0.1:${barePort}/v2/api/pricing`
    await autocannon({ url: bareUrl, ...load, duration: 2 })
    await autocannon({ url: `${base}/v2/api/pricing`, ...load, duration: 2 })
    const bareRuns: Array<number> = []
    const appRuns: Array<number> = []
    let pricingNon2xx = 0
    let pricingRss = 0
    for (let round = 0; round < PRICING_ROUNDS; round++) {
      bareRuns.push((await autocannon({ url: bareUrl, ...load })).requests.average)
      const stopPricingRss = sampleRss(server.pid!)
      const appResult = await autocannon({ url: `${base}/v2/api/pricing`, ...load })
      pricingRss = Math.max(pricingRss, stopPricingRss())
      appRuns.push(appResult.requests.average)
      pricingNon2xx += appResult.non2xx
    }

    // 2. orders: a funded user with an API key
    const callback = await fetch(`${base}/v2/auth/messenger/callback?${login({ id: "5550001", username: "bench", auth_date: String(Math.floor(Date.now() / 1000)) })}`, { redirect: "manual" })
    const cookie = callback.headers.get("set-cookie")!.split(";")[0]!
    for (let i = 0; i < 3; i++) {
      const topup = await (await fetch(`${base}/v2/balance/top-up`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: "amount_uzs=100000000"
      })).json() as { topup: { topup_id: number } }
      await fetch(`${base}/v2/api/admin/topups/${topup.topup.topup_id}/mark-paid`, { method: "POST", headers: { "x-admin-token": ADMIN_TOKEN } })
    }
    const key = ((await (await fetch(`${base}/v2/api-key/rotate`, { method: "POST", headers: { cookie } })).json()) as { api_key: string }).api_key
    const stopOrderRss = sampleRss(server.pid!)
    const orders = await autocannon({
      url: `${base}/v2/api/stars/buy`,
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ username: "bench_friend", amount: 50 }),
      connections: 32,
      duration: SECONDS
    })
    const ordersRss = stopOrderRss()
    const ordersPerSecond = orders["2xx"] / SECONDS
    const balance = await autocannon({ url: `${base}/v2/api/balance`, headers: { "x-api-key": key }, ...load })

    // The same transaction in pgbench: authenticate, read prices, insert the order, debit the ledger, read the balance.
    const userId = execFileSync("psql", [dbUrl, "-tAc", "SELECT id FROM users WHERE username = 'bench'"]).toString().trim()
    const hash = createHash("sha256").update(key).digest("hex")
    const script = join(tmpdir(), `${name}.pgbench.sql`)
    writeFileSync(script, `\\set uid ${userId}
BEGIN;
SELECT * FROM users WHERE api_key_hash = '${hash}';
SELECT * FROM prices;
INSERT INTO orders (user_id, recipient, kind, item, price_uzs, status, created_at, updated_at)
  VALUES (:uid, 'bench_friend', 'stars', '{"kind":"stars","stars":50}'::jsonb, 11500, 'queued', now(), now()) RETURNING id \\gset
WITH account AS (SELECT balance_uzs FROM accounts WHERE user_id = :uid FOR UPDATE),
entry AS (INSERT INTO ledger_entries (user_id, amount_uzs, cause, cause_id, note, balance_after_uzs)
  SELECT :uid, -11500, 'order', 'pgb-' || :id, NULL, balance_uzs - 11500 FROM account WHERE balance_uzs - 11500 >= 0
  ON CONFLICT (cause, cause_id) DO NOTHING RETURNING *),
moved AS (UPDATE accounts SET balance_uzs = entry.balance_after_uzs FROM entry WHERE accounts.user_id = entry.user_id)
SELECT * FROM entry;
COMMIT;
SELECT balance_uzs FROM accounts WHERE user_id = :uid;
`)
    const pgbench = execFileSync("pgbench", ["-n", "-c", "32", "-j", "2", "-T", String(SECONDS), "-f", script, dbUrl]).toString()
    const tps = Number(/tps = ([\d.]+)/.exec(pgbench)?.[1] ?? NaN)

    const fmt = (n: number) => n.toFixed(0)
    console.log(`\nHTTP benchmark (${SECONDS}s per phase, 2 cores shared by server, load generator and PostgreSQL; worker ${process.env.BENCH_WORKER === "true" ? "in" : "out of"} process)`)
    console.log(`GET /v2/api/pricing, 50 connections:`)
    const runs = (values: Array<number>) => values.map(fmt).join(", ")
    console.log(`  bare node:http      ${fmt(median(bareRuns))} req/s  (median of ${runs(bareRuns)})`)
    console.log(`  resale server       ${fmt(median(appRuns))} req/s  (median of ${runs(appRuns)})`)
    console.log(`  ratio               ${(median(appRuns) / median(bareRuns)).toFixed(2)}x of medians, ${ratioRange(appRuns, bareRuns)} by round; target >= 0.6x; non-2xx ${pricingNon2xx}`)
    console.log(`POST /v2/api/stars/buy, 32 connections:`)
    console.log(`  pgbench, same SQL   ${fmt(tps)} tx/s`)
    console.log(`  resale server       ${fmt(ordersPerSecond)} orders/s  (${(ordersPerSecond / tps).toFixed(2)}x, target >= 0.6x; non-2xx ${orders.non2xx}, errors ${orders.errors})`)
    console.log(`GET /v2/api/balance (API key, whole HttpApi pipeline, two queries), 50 connections:`)
    console.log(`  resale server       ${fmt(balance.requests.average)} req/s  (for reference; non-2xx ${balance.non2xx})`)
    console.log(`server RSS peak: ${fmt(pricingRss)} MB during pricing load, ${fmt(ordersRss)} MB during order load`)
  } finally {
    for (const child of children) child.kill("SIGTERM")
    await new Promise((r) => setTimeout(r, 500))
    await Effect.runPromise(dropDatabase(name)).catch(() => undefined)
  }
}

await main()
