import { defineProject } from "vitest/config"

export default defineProject({
  test: { name: "ton", include: ["src/**/*.test.ts", "test/**/*.test.ts"] }
})
