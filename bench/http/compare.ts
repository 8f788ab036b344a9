/**
 * How `run.ts` measures: a service against its baseline in alternating runs (`alternate`), each run's
 * rate and CPU per request, the server's RSS peak, wrk and autocannon results as rates, and the
 * printed comparison (figures only, never pass/fail).
 */
import { execFile, execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { promisify } from "node:util"
import { cpuSeconds, generatorThreads, median } from "./support.ts"

const execFileAsync = promisify(execFile)

export interface Comparison {
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

/** A load run of `seconds`: its rate and how many requests it made. */
export type Load = (seconds: number) => Promise<{ rate: number; requests: number }>

/** Lowest and highest resale/bare ratio over the rounds. */
const ratioRange = (app: Array<number>, bare: Array<number>) => {
  const ratios = app.map((value, i) => value / bare[i]!)
  return `${Math.min(...ratios).toFixed(2)}x-${Math.max(...ratios).toFixed(2)}x`
}

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))
  return line ? Number(line.replace(/\D+/g, "")) / 1024 : NaN
}

/** System CPU seconds alone. */
const systemSeconds = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[12]) / 100

/** The RSS peaks of a server, overall and since the current phase's measured rounds began, MB. */
export const rssPeaks = { phase: 0, overall: 0 }

/** Samples `pid`'s RSS while `run` runs, into `rssPeaks`. */
export const sampledOn = async <A>(pid: number, run: Promise<A>) => {
  let peak = 0
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 200)
  try {
    return await run
  } finally {
    clearInterval(timer)
    rssPeaks.phase = Math.max(rssPeaks.phase, peak)
    rssPeaks.overall = Math.max(rssPeaks.overall, rssPeaks.phase)
  }
}

export const hasWrk = (() => {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" })
    return true
  } catch (error) {
    // wrk prints its version and exits 1.
    return (error as { status?: number }).status === 1
  }
})()

/** wrk's req/s, on `cores` (`apart`) with a thread per core, or anywhere with one per core of the machine. */
export const wrk = async (url: string, connections: number, seconds: number, cores: string | undefined) => {
  const args = [`-t${generatorThreads(cores)}`, `-c${connections}`, `-d${seconds}s`, url]
  const { stdout } = await (cores === undefined
    ? execFileAsync("wrk", args)
    : execFileAsync("taskset", ["-c", cores, "wrk", ...args]))
  return {
    rate: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN),
    requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0)
  }
}

/** An autocannon result as a rate. */
export const ac = (result: { requests: { average: number }; "2xx": number; non2xx: number }) => ({
  rate: result.requests.average,
  requests: result["2xx"] + result.non2xx
})

/** A load run's rate, and the CPU microseconds per request the process `pid` spent on it. */
const measured = async (
  pid: number | undefined,
  run: () => Promise<{ rate: number; requests: number }>,
  cpu: Array<number>
) => {
  const before = pid === undefined ? 0 : cpuSeconds(pid)
  const sysBefore = pid === undefined ? 0 : systemSeconds(pid)
  const { rate, requests } = await run()
  if (pid !== undefined && requests > 0) {
    cpu.push(((cpuSeconds(pid) - before) * 1e6) / requests)
    if (process.env.BENCH_SYS === "true")
      console.log(
        `  pid ${pid}: system ${(((systemSeconds(pid) - sysBefore) * 1e6) / requests).toFixed(1)} us per request`
      )
  }
  return rate
}

/** Runs `base` and `app` alternately, `rounds` runs of `seconds` each, after a warm-up run of each (2 s unless `warmup` says). */
export const alternate = async (
  comparison: Omit<Comparison, "app" | "base" | "appCpu" | "baseCpu" | "rss">,
  pids: { readonly base: number | undefined; readonly app: number },
  base: Load,
  app: Load,
  { rounds, seconds, warmup = 2 }: { readonly rounds: number; readonly seconds: number; readonly warmup?: number }
): Promise<Comparison> => {
  await base(warmup)
  await app(warmup)
  rssPeaks.phase = 0
  const result: Comparison = { ...comparison, app: [], base: [], appCpu: [], baseCpu: [], rss: 0 }
  for (let round = 0; round < rounds; round++) {
    result.base.push(await measured(pids.base, () => base(seconds), result.baseCpu))
    result.app.push(await measured(pids.app, () => app(seconds), result.appCpu))
  }
  result.rss = rssPeaks.phase
  return result
}

/** Each comparison's medians, ratio, CPU per request and RSS peak. */
export const printComparisons = (comparisons: ReadonlyArray<Comparison>) => {
  const fmt = (n: number) => n.toFixed(0)
  const runs = (values: Array<number>) => values.map(fmt).join(", ")
  for (const c of comparisons) {
    console.log(`${c.name}:`)
    console.log(`  ${c.baseName.padEnd(34)} ${fmt(median(c.base))} ${c.unit}  (median of ${runs(c.base)})`)
    console.log(`  ${"resale server".padEnd(34)} ${fmt(median(c.app))} ${c.unit}  (median of ${runs(c.app)})`)
    console.log(
      `  ${"ratio".padEnd(34)} ${(median(c.app) / median(c.base)).toFixed(2)}x of medians, ${ratioRange(c.app, c.base)} by round; target >= ${c.target}x`
    )
    if (c.appCpu.length > 0) {
      const base = c.baseCpu.length > 0 ? `, baseline ${fmt(median(c.baseCpu))} us` : ""
      console.log(
        `  ${"CPU per request".padEnd(34)} server ${fmt(median(c.appCpu))} us${base} (user + system, median of rounds)`
      )
    }
    console.log(`  ${"server RSS peak".padEnd(34)} ${fmt(c.rss)} MB`)
  }
}
