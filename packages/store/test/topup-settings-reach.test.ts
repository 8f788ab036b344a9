/** On real PostgreSQL: settings given to the use cases' layer reach the store's uses too (the quarantine window). */
import { assert, describe, it } from "@effect/vitest"
import {
  coreWithTopupSettings,
  reachObserved,
  STRICT_TOPUP_OBSERVED,
  STRICT_TOPUP_SETTINGS
} from "@resale/core/testing/TopupSettingsReach.ts"
import { Effect } from "effect"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"

describe("TopupSettings given to the layer (real PostgreSQL)", () => {
  it.effect(
    "reach every use: amount bounds, expiry, receipt size and the quarantine window",
    () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* reachObserved, STRICT_TOPUP_OBSERVED)
      }).pipe(Effect.provide(coreWithTopupSettings(STRICT_TOPUP_SETTINGS, IsolatedPostgres.layerStore))),
    60_000
  )
})
