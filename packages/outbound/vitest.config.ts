import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "outbound",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    isolate: false
  }
})
