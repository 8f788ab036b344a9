/**
 * What ships for operators' monitoring (`deploy/monitoring`) holds: promtool accepts the alert rules and
 * their unit tests pass, and every metric the rules and the dashboard name is exposed by a running server
 * (a rule on a metric nobody exports never fires). A database gauge with labels (orders by state, ...)
 * has no series until a row exists: such a family counts when the server declares it among its gauges.
 */
import { assert, describe, it } from "@effect/vitest"
import { gaugeNames } from "@resale/store/PgGauges.ts"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, ROOT, startEntry, stopEntry } from "../support/ServerEntry.ts"
import { bundledEntry } from "../worker/support/BundledEntry.ts"

const MONITORING = join(ROOT, "deploy/monitoring")
const ADMIN_TOKEN = "monitoring-test-admin-token-77c1"

const promtool = (...args: Array<string>) => execFileSync("promtool", args, { cwd: MONITORING, encoding: "utf8" })

/** The product's metric names in a rules file or dashboard (histogram series reduced to their family). */
const metricNames = (text: string): ReadonlySet<string> =>
  new Set(
    [...text.matchAll(/\b(resale_[a-z0-9_]+|http_[a-z0-9_]+)\b/g)].map(([name]) =>
      name!.replace(/_(bucket|count|sum)$/, "")
    )
  )

/** Metric families named in a Prometheus exposition (`# HELP` / `# TYPE` lines and samples). */
const exposed = (text: string): ReadonlySet<string> =>
  new Set(
    text
      .split("\n")
      .map((line) => /^(?:# (?:HELP|TYPE) )?([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line)?.[1] ?? "")
      .filter((name) => name !== "" && name !== "#")
      .map((name) => name.replace(/_(bucket|count|sum)$/, ""))
  )

describe("monitoring shipped in deploy/monitoring", () => {
  it("promtool accepts the rules and their unit tests pass", () => {
    assert.include(promtool("check", "rules", "alerts.yml"), "SUCCESS")
    assert.include(promtool("test", "rules", "alerts.test.yml"), "SUCCESS")
  })

  it.live(
    "every metric the rules and the dashboard name is exposed by a running server",
    () =>
      Effect.gen(function* () {
        const wanted = new Set([
          ...metricNames(readFileSync(join(MONITORING, "alerts.yml"), "utf8")),
          ...metricNames(readFileSync(join(MONITORING, "dashboard.json"), "utf8"))
        ])
        assert.isAtLeast(wanted.size, 12)
        const declared = new Set(gaugeNames.map((gauge) => gauge.name))
        const name = uniqueName("monitoring")
        yield* Effect.acquireRelease(createDatabase(name), () => dropDatabase(name).pipe(Effect.orDie)).pipe(
          Effect.orDie
        )
        const dataDir = mkdtempSync(join(tmpdir(), "resale-monitoring-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const port = yield* Effect.promise(freePort)
        const env: NodeJS.ProcessEnv = {
          PATH: process.env["PATH"],
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl(name),
          ADMIN_TOKEN,
          TELEGRAM_API_URL: "http://127.0.0.1:9"
        }
        const server = yield* startEntry(env, port, undefined, yield* bundledEntry("server"))
        yield* Effect.addFinalizer(() => Effect.orDie(stopEntry(server)))
        // A loopback caller not relayed by a proxy reads /metrics without a token. The hot wallet's gauge appears once the worker has read the chain; the rest at the first scrape.
        let missing: Array<string> = []
        for (let attempt = 0; attempt < 120; attempt++) {
          const text = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text()))
          const names = exposed(text)
          missing = [...wanted].filter((metric) => !names.has(metric) && !declared.has(metric))
          if (missing.length === 0) break
          yield* Effect.sleep("500 millis")
        }
        assert.deepStrictEqual(missing, [], "metrics named in deploy/monitoring but not exposed")
      }),
    120_000
  )
})
