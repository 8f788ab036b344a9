import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "ton",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Each worker process runs its files one after another without reloading modules per file
    // (see docs/testing.md): each file still builds its own layers and databases.
    isolate: false,
    // The first test of a file also pays for starting the TON VM: on a loaded machine (the whole suite
    // runs a file per worker beside it) that alone can pass vitest's default of 5 seconds.
    testTimeout: 30_000
  }
})
