import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    // Safety nets, not assertions: a loaded machine (CI beside other builds) is slow; vitest's 5 s
    // default applies to projects unless they say otherwise.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    name: "webkit",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Each worker process runs its files one after another without reloading modules per file
    // (see docs/testing.md).
    isolate: false
  }
})
