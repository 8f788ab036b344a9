import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "worker",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Each worker process runs its files one after another without reloading modules per file
    // (see the README's Tests section): each file still builds its own layers and databases.
    isolate: false,
    // One migrated template database per run; each test file copies it (store's IsolatedPostgres).
    globalSetup: ["../store/src/testing/globalSetup.ts"]
  }
})
