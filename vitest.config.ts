import { existsSync } from "node:fs"
import { availableParallelism } from "node:os"
import { join } from "node:path"
import { defineConfig } from "vitest/config"
import { longestFirst } from "./vitest.sequencer.ts"

// Two workers per core and one more, for every project alike. Most of the end-to-end files' time is
// waiting: on the processes they start (a worker killed and started again, a server starting), on the
// browser, on PostgreSQL, on sandbox blocks. With one worker per core the 2-core machine ran the suite
// at about 58% of its CPU (6 min 52 s of wall time for 8 min of CPU); with five, 5 min 45 s for the
// same CPU, every test passing. Set through vitest's own variable so that every project, a new one
// included, gets the same number (projects that differ in it cannot run side by side). An explicit
// VITEST_MAX_WORKERS wins.
process.env["VITEST_MAX_WORKERS"] ??= String(availableParallelism() * 2 + 1)

// The longest files of a full run, longest first (vitest's file times, docs/testing.md): started
// first, so that no core finishes the run alone on one of them. A fresh clone has no timings of an
// earlier run, and a file's size says little of its time (the crash test is mid-sized).
const SLOW_FIRST = [
  "test/worker/fleet-kills.test.ts",
  "test/worker/concurrency.test.ts",
  "test/worker/crash.test.ts",
  "test/start/database-restart.test.ts",
  "test/web/pages.test.ts",
  "test/web/sandbox-recipients.test.ts",
  "test/web/operator.test.ts",
  "test/start/npm-start.test.ts",
  "test/web/failures-and-keys.test.ts",
  "test/worker/shared-sandbox.test.ts",
  "test/cli/backup.test.ts",
  "test/web/server-process.test.ts",
  "test/web/sandbox.test.ts",
  "test/web/shopper-reasons.test.ts",
  "test/web/shopper.test.ts",
  "test/web/balance-history.test.ts",
  "test/worker/sandbox-magic.test.ts",
  "test/web/gifts.test.ts",
  "test/web/bank-payments.test.ts",
  "test/cli/beside-server.test.ts",
  "test/worker/wallet-batches.test.ts",
  "packages/http/test/direct/direct-sandbox-magic.test.ts",
  "packages/http/test/no-5xx.test.ts",
  "packages/http/test/direct/direct-exactly-once.test.ts",
  "packages/store/test/pglite-wire.test.ts",
  "packages/store/test/account-caps.test.ts",
  "packages/store/test/store-pglite.test.ts",
  "packages/ton/test/highload-batches.test.ts",
  "packages/ton/test/ton-center-blockchain.test.ts",
  // Eleven seconds of waiting on a receiver that never answers: last, it ran alone at the end.
  "packages/worker/test/webhook-fairness.test.ts"
]

// A renamed or misspelt file would silently lose its place.
const missing = SLOW_FIRST.filter((file) => !existsSync(join(import.meta.dirname, file)))
if (missing.length > 0) throw new Error(`vitest.config.ts: SLOW_FIRST names no such file: ${missing.join(", ")}`)

export default defineConfig({
  test: {
    projects: ["packages/*", "test"],
    sequence: { sequencer: longestFirst(import.meta.dirname, SLOW_FIRST) },
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
