import { defineProject } from "vitest/config"

export default defineProject({
  test: { name: "marketplace", include: ["src/**/*.test.ts", "test/**/*.test.ts"] }
})
