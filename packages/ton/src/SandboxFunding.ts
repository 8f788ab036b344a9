/**
 * Sandbox coins for an address, as the sandbox tools hand them out (the server's
 * `POST /v2/api/admin/sandbox/fund`, `resale sandbox fund` without a server): the address checked by
 * the chain, the faucet's transfer, and the balance it produced. No money of the service moves: the
 * coins exist on the emulated chain only.
 */
import { Blockchain, type BlockchainError } from "@resale/core/ports/Blockchain.ts"
import type { Nanoton } from "@resale/core/money/Nanoton.ts"
import { Effect, Semaphore } from "effect"
import { SandboxFaucet } from "./SandboxFaucet.ts"

export interface SandboxFunding {
  readonly network: Blockchain["Service"]["network"]
  /** The address in the chain's own form, or InvalidAddress. */
  readonly parseAddress: (address: string) => Effect.Effect<string, BlockchainError>
  /** Funds a parsed address and answers its balance right after (one funding at a time). */
  readonly fund: (address: string, amount: Nanoton) => Effect.Effect<Nanoton, BlockchainError>
}

/** Over the Blockchain and the SandboxFaucet in context. */
export const makeSandboxFunding: Effect.Effect<SandboxFunding, never, Blockchain | SandboxFaucet> = Effect.gen(
  function* () {
    const chain = yield* Blockchain
    const faucet = yield* SandboxFaucet
    // One funding at a time, so the balance answered is the one this call produced.
    const funding = yield* Semaphore.make(1)
    return {
      network: chain.network,
      parseAddress: chain.parseAddress,
      fund: (address, amount) =>
        funding.withPermits(1)(Effect.andThen(faucet.fund(address, amount), chain.balance(address)))
    }
  }
)
