import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    // a worker per core, as every project (see the root vitest.config.ts)
    maxWorkers: "100%",
    name: "core",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Each worker process runs its files one after another without reloading modules per file
    // (see the README's Tests section): each file still builds its own layers and databases.
    isolate: false
  }
})
