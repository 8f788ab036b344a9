import { defineProject } from "vitest/config"

export default defineProject({
  test: { name: "push", include: ["src/**/*.test.ts", "test/**/*.test.ts"] }
})
