import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryPorts } from "../src/testing/MemoryPorts.ts"
import {
  coreWithTopupSettings,
  reachObserved,
  STRICT_TOPUP_OBSERVED,
  STRICT_TOPUP_SETTINGS
} from "../src/testing/TopupSettingsReach.ts"
import { DEFAULT_TOPUP_SETTINGS, type TopupSettingsShape } from "../src/topups/TopupSettings.ts"

describe("TopupSettings given to the layer (memory)", () => {
  it.effect("reach every use: amount bounds, expiry, receipt size and the quarantine window", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* reachObserved, STRICT_TOPUP_OBSERVED)
    }).pipe(Effect.provide(coreWithTopupSettings(STRICT_TOPUP_SETTINGS, MemoryPorts)))
  )

  it("every overridden value differs from its default, so the check above means something", () => {
    for (const [key, value] of Object.entries(STRICT_TOPUP_SETTINGS)) {
      assert.notStrictEqual(DEFAULT_TOPUP_SETTINGS[key as keyof TopupSettingsShape], value, key)
    }
  })
})
