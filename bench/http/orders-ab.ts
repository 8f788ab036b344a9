/**
 * Two builds of the server side by side on one database, for `POST /v2/api/stars/buy`: each a start
 * bundle (`deploy/start.mjs server` of its checkout, production settings as in `run.ts`), their runs
 * alternating, so a shared machine's drift falls on both alike. Prints each round's and the median
 * CPU per order (user + system) and rate of both (figures only, never pass/fail).
 * Run: node bench/http/orders-ab.ts BEFORE_CHECKOUT AFTER_CHECKOUT [seconds per run, 5] [rounds, 8]
 * AB_RATE=300 offers a fixed rate (orders/s) to both instead of as many as they take; AB_ENV_BEFORE /
 * AB_ENV_AFTER add settings to one side (`PG_POOL_MAX=20`). Each checkout needs its `npm install`.
 */
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import type { ChildProcess } from "node:child_process"
import { loadavg } from "node:os"
import { resolve } from "node:path"
import { ADMIN_TOKEN, autocannon, cpuSeconds, fundedApiKey, median, productionServer, ROOT, stop } from "./support.ts"

const [BEFORE, AFTER] = [resolve(process.argv[2] ?? ROOT), resolve(process.argv[3] ?? ROOT)]
const SECONDS = Number(process.argv[4] ?? 5)
const ROUNDS = Number(process.argv[5] ?? 8)
const RATE = process.env.AB_RATE ? { overallRate: Number(process.env.AB_RATE) } : {}

/** `KEY=value KEY2=value` as an environment. */
const settings = (text: string | undefined) =>
  Object.fromEntries(
    (text ?? "")
      .split(" ")
      .filter(Boolean)
      .map((pair) => pair.split("=", 2) as [string, string])
  )

/** A sandbox server of AFTER signs the bench user in, funds it and makes its API key, then stops. */
const fundedKey = async (dbUrl: string) => {
  const { child, base } = await productionServer(AFTER, dbUrl, { SANDBOX: "true", LOG_REQUESTS: "false" })
  const key = await fundedApiKey(base, ADMIN_TOKEN)
  await stop(child)
  return key
}

const main = async () => {
  const name = uniqueName("resale_orders_ab")
  await Effect.runPromise(createDatabase(name))
  const dbUrl = databaseUrl(name)
  const children: Array<ChildProcess> = []
  try {
    const key = await fundedKey(dbUrl)
    const before = await productionServer(BEFORE, dbUrl, settings(process.env.AB_ENV_BEFORE))
    children.push(before.child)
    const after = await productionServer(AFTER, dbUrl, settings(process.env.AB_ENV_AFTER))
    children.push(after.child)
    const run = async (side: { readonly child: ChildProcess; readonly base: string }, seconds: number) => {
      const cpu = cpuSeconds(side.child.pid!)
      const result = await autocannon({
        url: `${side.base}/v2/api/stars/buy`,
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify({ username: "bench_friend", amount: 50 }),
        connections: 32,
        duration: seconds,
        ...RATE
      })
      if (result.non2xx + result.errors > 0) console.log(`  ${result.non2xx} non-2xx answers, ${result.errors} errors`)
      return {
        us: ((cpuSeconds(side.child.pid!) - cpu) * 1e6) / (result["2xx"] + result.non2xx),
        rate: result["2xx"] / seconds
      }
    }
    await run(before, 2)
    await run(after, 2)
    const results = {
      before: [] as Array<{ us: number; rate: number }>,
      after: [] as Array<{ us: number; rate: number }>
    }
    for (let round = 0; round < ROUNDS; round++) {
      // Each side goes first in every other round.
      if (round % 2 === 0) {
        results.before.push(await run(before, SECONDS))
        results.after.push(await run(after, SECONDS))
      } else {
        results.after.push(await run(after, SECONDS))
        results.before.push(await run(before, SECONDS))
      }
      const [b, a] = [results.before.at(-1)!, results.after.at(-1)!]
      console.log(
        `round ${round + 1}: before ${b.us.toFixed(0)} us, ${b.rate.toFixed(0)}/s; after ${a.us.toFixed(0)} us, ${a.rate.toFixed(0)}/s; load ${loadavg()[0]!.toFixed(1)}`
      )
    }
    const us = (side: Array<{ us: number }>) => median(side.map((r) => r.us)).toFixed(0)
    const rate = (side: Array<{ rate: number }>) => median(side.map((r) => r.rate)).toFixed(0)
    console.log(
      `CPU per order, median of rounds: before ${us(results.before)} us, after ${us(results.after)} us; orders/s before ${rate(results.before)}, after ${rate(results.after)}; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`
    )
  } finally {
    for (const child of children) await stop(child)
    await Effect.runPromise(dropDatabase(name)).catch(() => undefined)
  }
}

await main()
