/**
 * Sandbox wiring in one layer: a running Fragment simulator (as the `FragmentSandbox` service, for
 * its control and wallet address) and the real Fragment adapter pointed at it (as `Marketplace`).
 * The server closes with the layer's scope.
 */
import { Context, Effect, Layer } from "effect"
import { Marketplace } from "@resale/core/ports/Marketplace.ts"
import type { FragmentOptions } from "../FragmentConfig.ts"
import { makeFragmentMarketplace } from "../FragmentMarketplace.ts"
import { FragmentSimulator, type FragmentSimulatorHandle, type FragmentSimulatorOptions } from "./FragmentSimulator.ts"

export class FragmentSandbox extends Context.Service<FragmentSandbox, FragmentSimulatorHandle>()(
  "marketplace/simulator/FragmentSandbox"
) {
  /** Only the simulator. */
  static readonly layerSimulator = (options: FragmentSimulatorOptions = {}) =>
    Layer.effect(FragmentSandbox, FragmentSimulator.scoped(options))

  /** The simulator plus `Marketplace` on it; `adapter` tunes timeouts and retries. */
  static readonly layer = (
    options: FragmentSimulatorOptions = {},
    adapter: Partial<Omit<FragmentOptions, "baseUrl" | "cookies">> = {}
  ) =>
    Layer.effect(
      Marketplace,
      Effect.gen(function* () {
        const sandbox = yield* FragmentSandbox
        return yield* makeFragmentMarketplace(sandbox.fragmentOptions(adapter))
      })
    ).pipe(Layer.provideMerge(FragmentSandbox.layerSimulator(options)))
}
