/**
 * A wallet as TON Connect describes it (raw address, public key, StateInit BOC): what Fragment's
 * link call wants to see of the paying wallet. Only public data leaves the `Wallet`.
 */
import { PayerAccounts } from "@resale/core/ports/PayerAccounts.ts"
import { Blockchain, Wallet } from "@resale/core/ports/Blockchain.ts"
import type { PayerAccount } from "@resale/core/ports/Marketplace.ts"
import { beginCell, storeStateInit } from "@ton/ton"
import { Effect, Layer } from "effect"
import { type NetworkGlobalId, walletContract } from "./WalletContracts.ts"

export const payerAccount = (wallet: Wallet, networkGlobalId: NetworkGlobalId): PayerAccount => {
  const publicKey = Wallet.key(wallet).publicKey
  const contract = walletContract(wallet.version, publicKey, networkGlobalId)
  return {
    address: contract.address.toRawString(),
    publicKey: Buffer.from(publicKey).toString("hex"),
    walletStateInit: beginCell().store(storeStateInit(contract.init)).endCell().toBoc().toString("base64")
  }
}

/** The V5R1 network id behind a Blockchain adapter's network name (the sandbox runs mainnet's). */
export const networkGlobalIdOf = (network: "mainnet" | "testnet" | "sandbox"): NetworkGlobalId =>
  network === "testnet" ? -3 : -239

export class TonPayerAccounts {
  /** `PayerAccounts` for the direct purchase flow, on the network of the `Blockchain` in use. */
  static readonly layer: Layer.Layer<PayerAccounts, never, Blockchain> = Layer.effect(
    PayerAccounts,
    Effect.gen(function* () {
      const networkGlobalId = networkGlobalIdOf((yield* Blockchain).network)
      return PayerAccounts.of({ describe: (wallet) => Effect.sync(() => payerAccount(wallet, networkGlobalId)) })
    })
  )
}
