/**
 * Test harness: a Fragment simulator on loopback and the real adapter pointed at it.
 */
import { beginCell } from "@ton/core"
import { Effect } from "effect"
import type { PayerAccount } from "@resale/core/ports/Marketplace.ts"
import type { FragmentOptions } from "../src/FragmentConfig.ts"
import { makeFragmentMarketplace } from "../src/FragmentMarketplace.ts"
import { FragmentSimulator, type FragmentSimulatorOptions } from "../src/simulator/FragmentSimulator.ts"

/** A well-formed TON Connect account; no key behind it, the simulator only checks the shape. */
export const payer: PayerAccount = {
  address: `0:${"ab".repeat(32)}`,
  publicKey: "cd".repeat(32),
  walletStateInit: beginCell()
    .storeUint(0, 2)
    .storeRef(beginCell().storeUint(7, 8))
    .endCell()
    .toBoc()
    .toString("base64")
}

/** Stands in for the signed external message a wallet would broadcast. */
export const signedBoc = beginCell().storeUint(0x7369676e, 32).storeUint(1, 64).endCell().toBoc().toString("base64")

export const simulated = (
  options: FragmentSimulatorOptions = {},
  adapter: Partial<Omit<FragmentOptions, "baseUrl" | "cookies">> = {}
) =>
  Effect.gen(function* () {
    const sim = yield* FragmentSimulator.scoped(options)
    const market = yield* makeFragmentMarketplace(sim.fragmentOptions(adapter))
    return { sim, market }
  })
