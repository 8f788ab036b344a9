import { layer } from "@effect/vitest"
import { SandboxBlockchain } from "../src/SandboxBlockchain.ts"
import { transferScenarios } from "./support/scenarios.ts"

layer(SandboxBlockchain.layer({ expiryMarginSeconds: 10 }), { timeout: "30 seconds" })("SandboxBlockchain", (it) => {
  transferScenarios(it)
})
