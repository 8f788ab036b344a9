/**
 * A wallet as TON Connect describes it (raw address, public key, StateInit BOC): what Fragment's
 * link call wants to see of the paying wallet. Only public data leaves the `Wallet`.
 */
import { Wallet } from "@resale/core/ports/Blockchain.ts"
import type { PayerAccount } from "@resale/core/ports/Marketplace.ts"
import { beginCell, storeStateInit } from "@ton/ton"
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
