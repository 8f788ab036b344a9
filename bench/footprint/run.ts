/**
 * Footprint benchmark (prints figures; never pass/fail):
 * 1. `npm ci --omit=dev` of this lockfile into an empty directory: time, size, native builds;
 * 2. start to first answer (`GET /v2/api/pricing`) as `npm start` starts (its command in package.json: the
 *    launcher and the bundle, built first when stale; the build is not timed): on external PostgreSQL in
 *    sandbox and in production mode (and from the TypeScript sources, for comparison), on a fresh embedded
 *    data directory, and on that embedded directory again (a restart); with the CPU time the server used
 *    until then, since on a shared machine the wall time mostly says how busy the other processes were;
 * 3. RSS of the server at idle (10 s after the first answer) and its peak under load (autocannon on
 *    `/v2/api/pricing`, 50 connections).
 * Targets (issue "light install"): npm ci < 60 s; first answer < 3 s external, < 5 s existing embedded;
 * idle RSS < 200 MB external, < 300 MB embedded; under load < 250 MB.
 * Needs PostgreSQL at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432) and the npm registry
 * (or npm's cache). Run: node bench/footprint/run.ts [seconds of load, default 10] [--skip-install] [--priority]
 * --priority (root only) runs each server at nice -15, so that on a machine shared with other work the
 * start is timed roughly as on a quiet one (the other processes, PostgreSQL included, wait).
 */
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import { type ChildProcess, execFileSync, spawn, type SpawnOptions } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { loadavg } from "node:os"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const autocannon = createRequire(import.meta.url)("autocannon") as (options: Record<string, unknown>) => Promise<{
  requests: { average: number }
}>

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const NODE = join(ROOT, "node_modules/.bin/node")
const LOAD_SECONDS = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 10)
const SKIP_INSTALL = process.argv.includes("--skip-install")
const PRIORITY = process.argv.includes("--priority")
const MB = 1024 * 1024

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer()
    s.listen(0, "127.0.0.1", () => {
      const a = s.address()
      s.close(() => resolve(typeof a === "object" && a ? a.port : 0))
    })
  })

/** The `node ...` arguments of `npm start` (package.json), so the benchmark starts what operators start. */
const START_ARGS = (() => {
  const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>
  const [node, ...args] = scripts["start"]!.split(" ")
  if (node !== "node") throw new Error(`npm start is not a node command: ${scripts["start"]}`)
  return args
})()
const SOURCES_ARGS = ["packages/http/src/main.ts"]

/** User + system CPU seconds of a process so far (/proc/PID/stat, clock ticks of 10 ms). */
const cpuOf = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")

const rssOf = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** `npm ci --omit=dev` of the manifests alone (no sources needed) in a temporary directory. */
const install = () => {
  const dir = mkdtempSync(join(tmpdir(), "resale-footprint-"))
  try {
    cpSync(join(ROOT, "package.json"), join(dir, "package.json"))
    cpSync(join(ROOT, "package-lock.json"), join(dir, "package-lock.json"))
    cpSync(join(ROOT, "deploy"), join(dir, "deploy"), { recursive: true })
    for (const name of readdirSync(join(ROOT, "packages"))) {
      if (!existsSync(join(ROOT, "packages", name, "package.json"))) continue
      mkdirSync(join(dir, "packages", name), { recursive: true })
      cpSync(join(ROOT, "packages", name, "package.json"), join(dir, "packages", name, "package.json"))
    }
    const started = performance.now()
    const log = execFileSync("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund", "--foreground-scripts"], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"]
    })
    const seconds = (performance.now() - started) / 1000
    const size = Number(execFileSync("du", ["-sb", join(dir, "node_modules")], { encoding: "utf8" }).split("\t")[0])
    const nodeVersion = execFileSync(join(dir, "node_modules/.bin/node"), ["--version"], { encoding: "utf8" }).trim()
    const native = /node-gyp|gyp info|prebuild-install/.test(log)
    return { seconds, size, nodeVersion, native }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

interface Started {
  readonly child: ChildProcess
  readonly firstAnswerMs: number
  readonly cpuSeconds: number
}

const start = async (env: Record<string, string>, port: number, args: ReadonlyArray<string>): Promise<Started> => {
  const began = performance.now()
  // `nice` execs node (same pid), so every thread of the server runs at the raised priority.
  const options: SpawnOptions = {
    cwd: ROOT,
    env: {
      PATH: process.env["PATH"] ?? "",
      PORT: String(port),
      LOG_REQUESTS: "false",
      TELEGRAM_API_URL: "http://127.0.0.1:9",
      ...env
    },
    stdio: ["ignore", "ignore", "inherit"]
  }
  const child = PRIORITY ? spawn("nice", ["-n", "-15", NODE, ...args], options) : spawn(NODE, args, options)
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    const ok = await fetch(`http://127.0.0.1:${port}/v2/api/pricing`).then(
      (r) => r.ok,
      () => false
    )
    if (ok) return { child, firstAnswerMs: performance.now() - began, cpuSeconds: cpuOf(child.pid!) }
    await sleep(20)
  }
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

/** Production settings with unreachable outside endpoints (the worker runs apart, as deployed). */
const PRODUCTION = {
  SANDBOX: "false",
  WORKER: "false",
  ADMIN_TOKEN: "bench-footprint-admin-token-0001",
  SESSION_SECRET: "bench-footprint-session-secret-of-32-chars",
  TELEGRAM_BOT_TOKEN: "123:bench-footprint-bot-token",
  TONCENTER_URL: "http://127.0.0.1:9/api/v2/jsonRPC",
  FRAGMENT_URL: "http://127.0.0.1:9",
  FRAGMENT_COOKIES: "stel_ssid=b; stel_dt=-1; stel_token=b; stel_ton_token=b"
}

/** First answer, idle RSS and (optionally) peak RSS under load of one start. */
const measure = async (label: string, env: Record<string, string>, withLoad: boolean, args = START_ARGS) => {
  const port = await freePort()
  const server = await start(env, port, args)
  await sleep(10_000)
  const idle = rssOf(server.child.pid!)
  let peak = idle
  let rps = 0
  if (withLoad) {
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.child.pid!))), 200)
    const result = await autocannon({
      url: `http://127.0.0.1:${port}/v2/api/pricing`,
      connections: 50,
      duration: LOAD_SECONDS
    })
    clearInterval(sampler)
    rps = result.requests.average
  }
  await stop(server.child)
  console.log(
    `${label.padEnd(42)} first answer ${(server.firstAnswerMs / 1000).toFixed(2)} s (CPU ${server.cpuSeconds.toFixed(2)} s)` +
      `   idle RSS ${(idle / MB).toFixed(0)} MB` +
      (withLoad ? `   under load ${(peak / MB).toFixed(0)} MB (${rps.toFixed(0)} req/s)` : "") +
      `   load average ${load()}`
  )
}

const main = Effect.gen(function* () {
  if (!SKIP_INSTALL) {
    const result = install()
    console.log(
      `npm ci --omit=dev                  ${result.seconds.toFixed(1)} s   ${(result.size / MB).toFixed(0)} MB   ` +
        `Node ${result.nodeVersion}   native builds: ${result.native ? "yes" : "none"}`
    )
  }
  // The bundle `npm start` runs, built now when stale so that no start below includes a build.
  yield* Effect.promise(async () => {
    const { build, freshBuild } = await import("../../deploy/bundle.mjs")
    if (freshBuild() === undefined) await build()
  })
  const name = uniqueName("bench_footprint")
  yield* createDatabase(name)
  yield* Effect.promise(async () => {
    const url = databaseUrl(name)
    await measure(
      "external PostgreSQL, sandbox",
      { DATABASE_URL: url, ADMIN_TOKEN: "bench-footprint-admin-token-0001" },
      true
    )
    // Production mode (no emulator, no simulator); the outside endpoints are never called by these requests.
    await measure("external PostgreSQL, production", { DATABASE_URL: url, ...PRODUCTION }, true)
    await measure("external PostgreSQL, production, sources", { DATABASE_URL: url, ...PRODUCTION }, false, SOURCES_ARGS)
  }).pipe(Effect.ensuring(Effect.orDie(dropDatabase(name))))
  const dataDir = mkdtempSync(join(tmpdir(), "resale-footprint-data-"))
  yield* Effect.promise(async () => {
    await measure("embedded, fresh data directory", { DATA_DIR: dataDir }, false)
    await measure("embedded, existing data directory", { DATA_DIR: dataDir }, true)
  }).pipe(Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))))
})

Effect.runPromise(main.pipe(Effect.orDie)).catch((error) => {
  console.error(error)
  process.exit(1)
})
