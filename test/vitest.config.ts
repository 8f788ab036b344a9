import { fileURLToPath } from "node:url"
import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "e2e",
    include: ["**/*.test.ts"],
    // Like the package projects: the worker keeps the loaded modules (effect, the whole product, the TON
    // VM) across files instead of importing them again for each one. Every file still builds its own
    // server, worker, databases and processes, and closes them with its scope.
    isolate: false,
    // The entries these tests start as processes (server, worker, CLI: dozens per run) reuse V8's
    // compiled code of the sources and dependencies instead of compiling it again at every start.
    env: { NODE_COMPILE_CACHE: fileURLToPath(new URL("../node_modules/.cache/node-compile-cache", import.meta.url)) },
    // A safety net, not a measure: with a worker more than there are cores, a browser test that signs in
    // six people can take over a minute on a loaded machine.
    testTimeout: 120_000,
    // One migrated template database per run; each test database copies it (store's IsolatedPostgres).
    globalSetup: ["../packages/store/src/testing/globalSetup.ts"],
    hookTimeout: 60_000
  }
})
