import { defineProject } from "vitest/config"

export default defineProject({
  test: { name: "telegram", include: ["src/**/*.test.ts", "test/**/*.test.ts"] }
})
