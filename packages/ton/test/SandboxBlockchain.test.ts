import { layer } from "@effect/vitest"
import { SandboxEnv } from "./support/layers.ts"
import { transferScenarios } from "./support/scenarios.ts"

layer(SandboxEnv, { timeout: "30 seconds" })("SandboxBlockchain (in-process TON VM)", (it) => {
  transferScenarios(it)
})
