import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

// One worker per core, for every project alike (vitest's default leaves one core free, so a 2-core
// machine ran one file at a time). The end-to-end files spend much of their time waiting on the
// processes they start, the browser and PostgreSQL; a second worker keeps both cores busy meanwhile.
// Set through vitest's own variable so that every project, a new one included, gets the same number
// (projects that differ in it cannot run side by side). An explicit VITEST_MAX_WORKERS wins.
process.env["VITEST_MAX_WORKERS"] ??= String(availableParallelism())

export default defineConfig({
  test: {
    projects: ["packages/*", "test"],
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
