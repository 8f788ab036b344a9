/**
 * What the HTTP benchmarks share: the production settings their servers run with (outside endpoints
 * unreachable: no measured request calls them), the production server's Node flags, ports, process
 * start and stop, and the funded bench customer.
 */
import { DEFAULT_ACCOUNT_CAPS } from "@resale/core/caps/CapSettings.ts"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { availableParallelism } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export const ROOT = fileURLToPath(new URL("../..", import.meta.url))
/** The project's pinned Node. */
export const NODE = join(ROOT, "node_modules/.bin/node")

/** autocannon (CommonJS), with the parts of its result the benchmarks read. */
export const autocannon = createRequire(import.meta.url)("autocannon") as (
  options: Record<string, unknown>
) => Promise<{
  requests: { average: number }
  non2xx: number
  errors: number
  "2xx": number
  duration: number
}>

export const ADMIN_TOKEN = "bench-admin-token-of-32-characters"
export const BOT_TOKEN = "777:bench-bot-token"

/** Production settings whose outside endpoints are unreachable. */
export const PRODUCTION = {
  SANDBOX: "false",
  ADMIN_TOKEN,
  SESSION_SECRET: "bench-http-session-secret-of-32-characters",
  TELEGRAM_BOT_TOKEN: BOT_TOKEN,
  TELEGRAM_API_URL: "http://127.0.0.1:9",
  TONCENTER_URL: "http://127.0.0.1:9/api/v2/jsonRPC",
  FRAGMENT_URL: "http://127.0.0.1:9",
  FRAGMENT_COOKIES: "stel_ssid=b; stel_dt=-1; stel_token=b; stel_ton_token=b"
}

/**
 * The Node flags of the production server: its systemd unit's (`deploy/systemd/resale.service` in
 * `checkout`), so the heap and the garbage collector work as in production. BENCH_START_FLAGS
 * replaces them (to try others).
 */
export const startFlags = (checkout: string): Array<string> =>
  (
    process.env.BENCH_START_FLAGS ??
    /^ExecStart=\S+\/node\s+(.*?)\s*deploy\/start\.mjs server$/m.exec(
      readFileSync(join(checkout, "deploy/systemd/resale.service"), "utf8")
    )![1]!
  )
    .split(/\s+/)
    .filter(Boolean)

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer()
    s.listen(0, "127.0.0.1", () => {
      const a = s.address()
      s.close(() => resolve(typeof a === "object" && a ? a.port : 0))
    })
  })

/** Waits until `url` answers 2xx; gives up when `child` exited. */
export const waitFor = async (url: string, child?: ChildProcess) => {
  for (let i = 0; i < 800 && (child === undefined || child.exitCode === null); i++) {
    if (
      await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.ok,
        () => false
      )
    )
      return
    await new Promise((r) => setTimeout(r, 150))
  }
  throw new Error(`${url} did not come up`)
}

/**
 * A server of `checkout` as its production unit runs it (its bundle, `flags`, the production
 * settings above, the worker apart), on a free port of its own; `env` adds or overrides settings.
 */
export const productionServer = async (
  checkout: string,
  dbUrl: string,
  env: Record<string, string> = {},
  flags: Array<string> = startFlags(checkout)
) => {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const child = spawn(NODE, [...flags, join(checkout, "deploy/start.mjs"), "server"], {
    cwd: checkout,
    env: {
      ...process.env,
      ...PRODUCTION,
      PORT: String(port),
      DATABASE_URL: dbUrl,
      PUBLIC_URL: base,
      WORKER: "false",
      ...env
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  await waitFor(`${base}/healthz`, child).catch((error) => {
    child.kill("SIGTERM")
    throw error
  })
  return { child, base }
}

/** User + system CPU seconds a process has used so far (clock ticks of 10 ms). */
export const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}

export const median = (values: Array<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** SIGTERM, and the exit waited for (a server under --cpu-prof writes its profile then). */
export const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

/**
 * The benchmarks' customer: signs `bench` in on a sandbox server at `base`, tops it up as often as an
 * account may in a day (20 x 100,000,000 UZS, some 170,000 orders of 50 stars: ten top-ups ran out
 * within `orders-ab.ts 5 8` on a machine taking 1,700 orders/s) through the operator's mark-paid
 * call, and answers its new API key.
 */
export const fundedApiKey = async (base: string, adminToken: string): Promise<string> => {
  const callback = await fetch(`${base}/v2/auth/sandbox?user=bench`, { redirect: "manual" })
  const cookie = callback.headers.get("set-cookie")!.split(";")[0]!
  for (let i = 0; i < DEFAULT_ACCOUNT_CAPS.topupsPerDay; i++) {
    const topup = (await (
      await fetch(`${base}/v2/balance/top-up`, {
        method: "POST",
        headers: { cookie, origin: base, "content-type": "application/x-www-form-urlencoded" },
        body: "amount_uzs=100000000"
      })
    ).json()) as { topup: { topup_id: number } }
    await fetch(`${base}/v2/api/admin/topups/${topup.topup.topup_id}/mark-paid`, {
      method: "POST",
      headers: { "x-admin-token": adminToken }
    })
  }
  const rotated = await (
    await fetch(`${base}/v2/api-key/rotate`, { method: "POST", headers: { cookie, origin: base } })
  ).json()
  return (rotated as { api_key: string }).api_key
}

const CORES = availableParallelism()
const taskset = (cores: string, pid: number) =>
  execFileSync("taskset", ["-a", "-cp", cores, String(pid)], { stdio: "ignore" })

/**
 * Runs `run` with the servers `pids` on the first core and this process (autocannon runs in it) on
 * the others, then lets every process run anywhere again; `run` is told the generator's cores, for
 * a load generator it starts (`wrk`), or `undefined` when nothing was pinned. Why: on a small machine
 * a generator scheduled onto a server's core takes turns with it, so a round measured where the
 * scheduler put them (0.6x-1.5x by round for the same two servers); apart, each server's own
 * speed bounds its rate, as with the generator on another machine. BENCH_PIN=false, one core or no
 * `taskset` leave them unpinned.
 */
export const apart = async <A>(
  pids: ReadonlyArray<number>,
  run: (generatorCores: string | undefined) => Promise<A>
): Promise<A> => {
  const everywhere = `0-${CORES - 1}`
  const generator = CORES === 2 ? "1" : `1-${CORES - 1}`
  let pinned = false
  try {
    if (process.env.BENCH_PIN !== "false" && CORES > 1) {
      for (const pid of pids) taskset("0", pid)
      taskset(generator, process.pid)
      pinned = true
    }
  } catch {
    // No taskset here: unpinned.
  }
  try {
    return await run(pinned ? generator : undefined)
  } finally {
    if (pinned) for (const pid of [...pids, process.pid]) taskset(everywhere, pid)
  }
}

/** How many threads a load generator on `cores` (as `apart` gives them) runs: one per core. */
export const generatorThreads = (cores: string | undefined) => (cores === undefined ? CORES : CORES - 1)
