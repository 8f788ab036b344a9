/**
 * The price list after the server went quiet (prints figures; never pass/fail): two servers of this
 * checkout side by side on one database, one with the production server's V8 flags and one with the same
 * flags but V8's memory reducer left on (`--no-memory-reducer` taken out). Both are loaded, left idle
 * for IDLE seconds (the reducer collects the heap a few seconds after a process goes quiet), then
 * loaded again in alternating rounds: req/s and CPU per request of each, before and after the idle.
 * Why: after the reducer's collections Node's `process.nextTick` stayed on V8's slow path and the
 * route answered about a quarter slower until the server restarted (docs/performance.md).
 * Run: node bench/http/idle.ts [idle seconds, default 40] [seconds per run, 5] [rounds, 3]
 */
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import type { ChildProcess } from "node:child_process"
import { loadavg } from "node:os"
import { autocannon, cpuSeconds, productionServer, ROOT, startFlags, stop } from "./support.ts"

const IDLE = Number(process.argv[2] ?? 40)
const SECONDS = Number(process.argv[3] ?? 5)
const ROUNDS = Number(process.argv[4] ?? 3)

type Side = { readonly name: string; readonly child: ChildProcess; readonly base: string }

const run = async (side: Side, seconds: number) => {
  const cpu = cpuSeconds(side.child.pid!)
  const result = await autocannon({ url: `${side.base}/v2/api/pricing`, connections: 50, duration: seconds })
  const answered = result["2xx"] + result.non2xx
  return { rate: result["2xx"] / seconds, us: ((cpuSeconds(side.child.pid!) - cpu) * 1e6) / answered }
}

const rounds = async (sides: ReadonlyArray<Side>, label: string) => {
  for (let round = 0; round < ROUNDS; round++) {
    const ordered = round % 2 === 0 ? sides : [...sides].reverse()
    const figures: Array<string> = []
    for (const side of ordered) {
      const { rate, us } = await run(side, SECONDS)
      figures.push(`${side.name} ${rate.toFixed(0)} req/s, ${us.toFixed(1)} us`)
    }
    console.log(`${label}, round ${round + 1}: ${figures.join("; ")} (load ${loadavg()[0]!.toFixed(1)})`)
  }
}

const main = async () => {
  const { build, freshBuild } = await import("../../deploy/bundle.mjs")
  if (freshBuild() === undefined) await build()
  const name = uniqueName("resale_idle")
  await Effect.runPromise(createDatabase(name))
  const dbUrl = databaseUrl(name)
  const flags = startFlags(ROOT)
  const sides: Array<Side> = []
  try {
    sides.push({ name: "start flags", ...(await productionServer(ROOT, dbUrl, {}, flags)) })
    sides.push({
      name: "memory reducer on",
      ...(await productionServer(
        ROOT,
        dbUrl,
        {},
        flags.filter((f) => f !== "--no-memory-reducer")
      ))
    })
    await rounds(sides, "fresh")
    console.log(`idle ${IDLE} s`)
    await new Promise((resolve) => setTimeout(resolve, IDLE * 1000))
    await rounds(sides, "after the idle")
  } finally {
    for (const side of sides) await stop(side.child)
    await Effect.runPromise(dropDatabase(name)).catch(() => undefined)
  }
}

await main()
