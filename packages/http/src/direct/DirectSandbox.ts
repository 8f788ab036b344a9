/**
 * Sandbox mode of the direct surface: the TON emulator and a simulated Fragment that speaks Fragment's
 * wire format and delivers only once the payment (amount, address, `Ref#`) is really on the emulated
 * chain. Payment messages are real: they leave the customer's sandbox wallet and land at the sandbox
 * Fragment wallet, so balances move exactly as they would on mainnet.
 */
import type { Blockchain } from "@resale/core/ports/Blockchain.ts"
import type { Marketplace } from "@resale/core/ports/Marketplace.ts"
import type { FragmentOptions } from "@resale/marketplace/FragmentConfig.ts"
import { FragmentSandbox } from "@resale/marketplace/simulator/FragmentSandbox.ts"
import type { FragmentSimulatorOptions } from "@resale/marketplace/simulator/FragmentSimulator.ts"
import type { PaymentSeen } from "@resale/marketplace/simulator/SimulatorApi.ts"
import { SandboxBlockchain } from "@resale/ton/SandboxBlockchain.ts"
import type { Blockchain as Emulator } from "@ton/sandbox"
import { Address, type Cell } from "@ton/ton"
import { Effect, Layer } from "effect"

const commentOf = (body: Cell): string | undefined => {
  try {
    const slice = body.beginParse()
    return slice.remainingBits >= 32 && slice.loadUint(32) === 0 ? slice.loadStringTail() : undefined
  } catch {
    // not a text comment: not a Fragment payment
    return undefined
  }
}

/** Has a payment with this Ref# and at least this amount reached `address` on the emulator? */
export const paymentSeenOn = (emulator: Emulator): PaymentSeen => async (ref, expected) => {
  const txs = await emulator.getTransactions(Address.parse(expected.address))
  return txs.some((tx) => {
    const info = tx.inMessage?.info
    if (tx.inMessage == null || info?.type !== "internal" || info.value.coins < expected.amount) return false
    return commentOf(tx.inMessage.body)?.includes(`Ref#${ref}`) === true
  })
}

type AdapterOptions = Partial<Omit<FragmentOptions, "baseUrl" | "cookies">>

/** The simulated Fragment (and the real Fragment adapter on it) over the `SandboxBlockchain` in context. */
export const sandboxMarketplace = (simulator: FragmentSimulatorOptions = {}, adapter: AdapterOptions = {}) =>
  Layer.unwrap(Effect.gen(function*() {
    const { emulator } = yield* SandboxBlockchain
    return FragmentSandbox.layer({ ...simulator, paymentSeen: paymentSeenOn(emulator) }, adapter)
  }))

export const DirectSandbox = {
  /**
   * Chain + marketplace for sandbox mode: `SandboxBlockchain.layer` (state under DATA_DIR; the same layer
   * value, so a composition root that also uses it shares one emulator) and the simulated Fragment on it.
   */
  layer: sandboxMarketplace().pipe(Layer.provideMerge(SandboxBlockchain.layer)) as Layer.Layer<
    Blockchain | SandboxBlockchain | Marketplace | FragmentSandbox,
    unknown
  >
} as const
