/**
 * What the operator's log shipper and Prometheus see from the real entry: every stdout line is one
 * JSON object (stdout is not a terminal, so JSON is the default) with time, level and message; one line
 * per request with method, route, status, duration, client and user; start (settings without secrets),
 * shutdown begun and done. Secrets never appear, even when a caller puts them in a URL. `/metrics`
 * is Prometheus text with the request series and the business gauges; `/livez` and `/readyz` answer.
 */
import { assert, describe, it } from "@effect/vitest"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, startEntry, stopEntry } from "../support/ServerEntry.ts"
import { bundledEntry } from "../worker/support/BundledEntry.ts"

const ADMIN_TOKEN = "ops-test-admin-token-5d1f0c2b9e"
const METRICS_TOKEN = "ops-test-metrics-token-8a3e6d1f40"
const API_KEY = "rk_Zx8Vb7Nm6Lk5Jh4Gf3Ds2Aq1Wz0Xs9Ed8Cr7Tf6Yg5Uh"
const MNEMONIC = "abandon ability able about above absent absorb abstract absurd abuse access accident"

const fetchText = (url: string, init: RequestInit = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) })
    return { status: response.status, text: await response.text() }
  })

/** `name{labels} value` lines of a Prometheus text exposition, comments checked for shape. */
const parsePrometheus = (text: string) => {
  const samples: Array<{ name: string; labels: Record<string, string>; value: number }> = []
  for (const line of text.split("\n")) {
    if (line === "") continue
    if (line.startsWith("#")) {
      assert.match(line, /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/)
      continue
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    assert.isNotNull(match, `not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const pair of (match![2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1]!] = pair[2]!
    samples.push({ name: match![1]!, labels, value: Number(match![3]) })
  }
  return samples
}

describe("logs, metrics and probes of the running server", () => {
  it.live(
    "JSON lines, request lines, lifecycle lines, no secret; /metrics parsed; /livez and /readyz",
    () =>
      Effect.gen(function* () {
        const name = uniqueName("ops_logs")
        yield* Effect.acquireRelease(createDatabase(name), () => dropDatabase(name).pipe(Effect.orDie)).pipe(
          Effect.orDie
        )
        const dataDir = mkdtempSync(join(tmpdir(), "resale-ops-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const port = yield* Effect.promise(freePort)
        const base = `http://127.0.0.1:${port}`
        const env: NodeJS.ProcessEnv = {
          PATH: process.env["PATH"],
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl(name),
          ADMIN_TOKEN,
          METRICS_TOKEN,
          TELEGRAM_API_URL: "http://127.0.0.1:9"
        }
        // The start bundle of these sources, as `npm start` runs it.
        const server = yield* startEntry(env, port, undefined, yield* bundledEntry("server"))

        assert.deepStrictEqual(JSON.parse((yield* fetchText(`${base}/livez`)).text), { status: "ok" })
        const ready = yield* fetchText(`${base}/readyz`)
        assert.strictEqual(ready.status, 200)
        assert.deepStrictEqual(JSON.parse(ready.text).checks, { database: "ok", migrations: "ok", worker: "ok" })
        assert.strictEqual((yield* fetchText(`${base}/healthz`)).status, 200)

        // Secrets where a careless caller might put them: in the path, and the admin token in its header.
        yield* fetchText(`${base}/v2/${API_KEY}/${encodeURIComponent(MNEMONIC)}`)
        const markPaid = yield* fetchText(`${base}/v2/api/admin/topups/999999/mark-paid`, {
          method: "POST",
          headers: { "x-admin-token": ADMIN_TOKEN, "content-type": "application/json" },
          body: "{}"
        })
        yield* fetchText(`${base}/v2/api/pricing`)

        const metrics = yield* fetchText(`${base}/metrics`)
        assert.strictEqual(metrics.status, 200)
        const samples = parsePrometheus(metrics.text)
        const requests = (route: string) =>
          samples.find(
            (s) => s.name === "http_requests_total" && s.labels["route"] === route && s.labels["status"] === "200"
          )
        assert.isAtLeast(requests("/livez")?.value ?? 0, 1)
        assert.isAtLeast(requests("/readyz")?.value ?? 0, 1)
        assert.isTrue(
          samples.some((s) => s.name === "http_request_duration_seconds_bucket" && s.labels["le"] === "+Inf")
        )
        for (const gauge of ["resale_outbox_backlog", "resale_refunds", "resale_order_fulfilment_attempts"]) {
          assert.isTrue(
            samples.some((s) => s.name === gauge),
            `${gauge} in /metrics`
          )
        }
        // The hot wallet's balance is read from the chain by the worker, once it has started.
        const chainSamples = yield* Effect.gen(function* () {
          for (let attempt = 0; attempt < 120; attempt++) {
            const found = parsePrometheus((yield* fetchText(`${base}/metrics`)).text)
            if (found.some((s) => s.name === "resale_hot_wallet_balance_ton")) return found
            yield* Effect.sleep("500 millis")
          }
          return yield* Effect.die(new Error("resale_hot_wallet_balance_ton never appeared in /metrics"))
        })
        assert.isAtLeast(chainSamples.find((s) => s.name === "resale_hot_wallet_balance_ton")!.value, 0)
        assert.strictEqual(chainSamples.find((s) => s.name === "resale_key_derivations_in_progress")?.value, 0)
        // Through a proxy (X-Forwarded-For) only with the metrics token; the operator token is never
        // accepted there (it was before METRICS_TOKEN had to be its own).
        assert.strictEqual(
          (yield* fetchText(`${base}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9" } })).status,
          401
        )
        const withAdminToken = yield* fetchText(`${base}/metrics`, {
          headers: { "x-forwarded-for": "203.0.113.9", authorization: `Bearer ${ADMIN_TOKEN}` }
        })
        assert.strictEqual(withAdminToken.status, 401)
        const withToken = yield* fetchText(`${base}/metrics`, {
          headers: { "x-forwarded-for": "203.0.113.9", authorization: `Bearer ${METRICS_TOKEN}` }
        })
        assert.strictEqual(withToken.status, 200)

        assert.strictEqual(yield* stopEntry(server), 0)
        const text = server.stdout()
        const lines = text
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as Record<string, unknown>)
        for (const line of lines) {
          assert.match(String(line["time"]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
          assert.oneOf(line["level"], ["trace", "debug", "info", "warn", "error", "fatal"])
          assert.isString(line["message"])
        }
        const started = lines.find((line) => line["message"] === "server started")!
        assert.strictEqual((started["config"] as Record<string, unknown>)["admin_token"], "<redacted>")
        const admin = lines.find((line) => line["route"] === "/v2/api/admin/topups/:topup_id/mark-paid")!
        assert.deepInclude(admin, {
          method: "POST",
          status: markPaid.status,
          user: "operator",
          path: "/v2/api/admin/topups/999999/mark-paid"
        })
        assert.isNumber(admin["duration_ms"])
        assert.isString(admin["client"])
        assert.match(String(admin["request_id"]), /\S/, "the request id is on the request's line")
        assert.isTrue(lines.some((line) => line["message"] === "server: shutdown begun"))
        assert.strictEqual(lines.at(-1)!["message"], "server: shutdown done")
        for (const secret of [ADMIN_TOKEN, METRICS_TOKEN, API_KEY, "abandon ability", "abandon%20ability"])
          assert.notInclude(server.output(), secret)
      }),
    180_000
  )
})
