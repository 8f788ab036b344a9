import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "http",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // One migrated template database per run; each test file copies it (store's IsolatedPostgres).
    globalSetup: ["../store/src/testing/globalSetup.ts"]
  }
})
