/**
 * What the HTTP benchmarks share: the production settings their servers run with (outside endpoints
 * unreachable: no measured request calls them), the start command's Node flags, ports, process
 * start and stop, and the funded bench customer.
 */
import type { ChildProcess } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"

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
 * The Node flags of `npm start` (package.json's `start` in `checkout`), so the heap and the garbage
 * collector work as in production. BENCH_START_FLAGS replaces them (to try others).
 */
export const startFlags = (checkout: string): Array<string> =>
  (process.env.BENCH_START_FLAGS ??
    (JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start
      .replace(/^node\s+/, "").replace(/\s*deploy\/start\.mjs.*$/, "")).split(/\s+/).filter(Boolean)

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
    if (await fetch(url, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false)) return
    await new Promise((r) => setTimeout(r, 150))
  }
  throw new Error(`${url} did not come up`)
}

/** SIGTERM, and the exit waited for (a server under --cpu-prof writes its profile then). */
export const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

/**
 * The benchmarks' customer: signs `bench` in on a sandbox server at `base`, tops it up ten times
 * (enough for every order of every round and pgbench's) through the operator's mark-paid call, and
 * answers its new API key.
 */
export const fundedApiKey = async (base: string, adminToken: string): Promise<string> => {
  const callback = await fetch(`${base}/v2/auth/sandbox?user=bench`, { redirect: "manual" })
  const cookie = callback.headers.get("set-cookie")!.split(";")[0]!
  for (let i = 0; i < 10; i++) {
    const topup = await (await fetch(`${base}/v2/balance/top-up`, {
      method: "POST",
      headers: { cookie, origin: base, "content-type": "application/x-www-form-urlencoded" },
      body: "amount_uzs=100000000"
    })).json() as { topup: { topup_id: number } }
    await fetch(`${base}/v2/api/admin/topups/${topup.topup.topup_id}/mark-paid`, { method: "POST", headers: { "x-admin-token": adminToken } })
  }
  const rotated = await (await fetch(`${base}/v2/api-key/rotate`, { method: "POST", headers: { cookie, origin: base } })).json()
  return (rotated as { api_key: string }).api_key
}
