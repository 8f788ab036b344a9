import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { call } from "./Client.ts"
import { opsTestServer, rawStatus } from "./OpsServer.ts"
import { TestServer } from "./TestServer.ts"

/**
 * Security round three, finding 1: a request to a path no route matches was counted under its raw
 * path, so random paths grew `/metrics` (and the process) for good. Now every such request counts
 * under `route="unmatched"` and the series set is bounded: thousands of random paths, answered 404
 * or 413 (an oversized declared body, refused before routing), with many methods, leave `/metrics`
 * with the same series, only its counts grown.
 */
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "PROPFIND", "MKCOL", "PURGE", "REPORT"]
const FLOOD = 3000

/** A random path of about 2 KB, never seen before. */
const randomPath = () => `/flood-${randomBytes(1536).toString("base64url")}`

const head = (method: string, path: string, oversized: boolean) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
  (oversized ? "Content-Length: 100000000\r\n" : "") +
  "\r\n"

/** The exposition without its values: the series it holds, in order. */
const seriesOf = (text: string) =>
  text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => line.slice(0, line.lastIndexOf(" ")))

layer(opsTestServer(), { timeout: "120 seconds", excludeTestServices: true })("bounded /metrics", (it) => {
  it.effect("thousands of random paths, 404 and 413, any method: the same series before and after", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const send = (requests: ReadonlyArray<readonly [method: string, oversized: boolean]>) =>
        Effect.promise(async () => {
          const statuses = new Map<number, number>()
          for (let at = 0; at < requests.length; at += 20) {
            const batch = requests.slice(at, at + 20)
            const answers = await Promise.all(
              batch.map(([method, oversized]) => rawStatus(url, head(method, randomPath(), oversized)))
            )
            for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1)
          }
          return statuses
        })
      // Every method and kind once, and a scrape: the series the flood may add to, made beforehand.
      yield* send(METHODS.flatMap((method) => [[method, false] as const, [method, true] as const]))
      yield* call(url, "/metrics")
      const before = (yield* call(url, "/metrics")).text

      const flood = Array.from(
        { length: FLOOD },
        () => [METHODS[Math.floor(Math.random() * METHODS.length)]!, Math.random() < 0.5] as const
      )
      const statuses = yield* send(flood)
      assert.deepStrictEqual([...statuses.keys()].sort(), [404, 413], "every request answered 404 or 413")
      const after = yield* call(url, "/metrics")
      assert.strictEqual(after.status, 200)

      assert.deepStrictEqual(seriesOf(after.text), seriesOf(before), "no series was added")
      // Only values grew: a few digits on the unmatched counters and histograms.
      assert.isBelow(after.text.length - before.length, 4096)
      assert.notInclude(after.text, "/flood-")
      const unmatched = after.text
        .split("\n")
        .filter((line) => line.startsWith("http_requests_total{") && line.includes(`route="unmatched"`))
        .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0)
      assert.isAtLeast(unmatched, FLOOD)
      assert.notInclude(after.text, "http_metrics_series_dropped_total", "the route table stays far below the cap")
    })
  )
})
