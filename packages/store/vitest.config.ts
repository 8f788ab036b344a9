import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "store",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // One migrated template database per run; each test file copies it (see src/testing/IsolatedPostgres.ts).
    globalSetup: ["./src/testing/globalSetup.ts"]
  }
})
