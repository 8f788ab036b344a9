import { defineProject } from "vitest/config"

export default defineProject({
  test: { name: "apiclient", include: ["test/**/*.test.ts"], isolate: false }
})
