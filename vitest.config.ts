import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: ["packages/*", "test"],
    // One worker per core (vitest's default leaves one core free, so a 2-core machine ran one file at a
    // time). The end-to-end files spend much of their time waiting on the processes they start, the
    // browser and PostgreSQL; a second worker keeps both cores busy meanwhile.
    maxWorkers: "100%",
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
