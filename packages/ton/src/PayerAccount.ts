/**
 * A wallet as TON Connect describes it (raw address, public key, StateInit BOC): what Fragment's
 * link call wants to see of the paying wallet. Only public data leaves the `Wallet`.
 */
import { PayerAccounts } from "@resale/core/ports/PayerAccounts.ts"
import { WalletAccounts } from "@resale/core/ports/WalletAccounts.ts"
import { Blockchain, Wallet } from "@resale/core/ports/Blockchain.ts"
import type { PayerAccount } from "@resale/core/ports/Marketplace.ts"
import { Address, beginCell, Cell, contractAddress, loadMessage, loadStateInit, storeStateInit } from "@ton/ton"
import { Effect, Layer } from "effect"
import { type NetworkGlobalId, type WalletContract, walletContract } from "./WalletContracts.ts"

/** The description of a wallet contract made from `publicKey` (its address, that key, its StateInit). */
export const contractAccount = (contract: WalletContract, publicKey: Uint8Array): PayerAccount => ({
  address: contract.address.toRawString(),
  publicKey: Buffer.from(publicKey).toString("hex"),
  walletStateInit: beginCell().store(storeStateInit(contract.init)).endCell().toBoc().toString("base64")
})

export const payerAccount = (wallet: Wallet, networkGlobalId: NetworkGlobalId): PayerAccount => {
  const publicKey = Wallet.key(wallet).publicKey
  return contractAccount(walletContract(wallet.version, publicKey, networkGlobalId), publicKey)
}

/** The V5R1 network id behind a Blockchain adapter's network name (the sandbox runs mainnet's). */
export const networkGlobalIdOf = (network: "mainnet" | "testnet" | "sandbox"): NetworkGlobalId =>
  network === "testnet" ? -3 : -239

const PUBLIC_KEY = /^[0-9a-fA-F]{64}$/

/** Any address form as raw `0:<hex>`, lower case; undefined when it does not parse. */
export const rawAddressOf = (address: string): string | undefined => {
  try {
    return Address.parse(address.trim()).toRawString().toLowerCase()
  } catch {
    // not an address
    return undefined
  }
}

/** The wallet an external message goes to (raw, lower case); undefined when the BOC is no such message. */
export const signerOf = (boc: string): string | undefined => {
  try {
    const message = loadMessage(Cell.fromBase64(boc).beginParse())
    return message.info.type === "external-in" ? message.info.dest.toRawString().toLowerCase() : undefined
  } catch {
    // not a message BOC
    return undefined
  }
}

/**
 * A TON Connect account checked: its StateInit (the wallet's code and data) must make exactly its
 * address, so an order scoped to that address is the wallet's that signs for it.
 */
export const verifyAccount = (account: PayerAccount): PayerAccount | string => {
  const address = rawAddressOf(account.address)
  if (address === undefined) return "account.address is not a TON address"
  if (!PUBLIC_KEY.test(account.publicKey)) return "account.publicKey must be 64 hex characters"
  let made: string
  try {
    const init = loadStateInit(Cell.fromBase64(account.walletStateInit).beginParse())
    made = contractAddress(Address.parse(address).workChain, init).toRawString().toLowerCase()
  } catch {
    // not a StateInit BOC
    return "account.walletStateInit must be the wallet's StateInit as a base64 BOC"
  }
  if (made !== address) return "account.walletStateInit does not belong to account.address (another wallet's)"
  return { address, publicKey: account.publicKey.toLowerCase(), walletStateInit: account.walletStateInit }
}

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

/** `WalletAccounts` for the wallet road: accounts checked by their StateInit, addresses read in any form. */
export const TonWalletAccounts = Layer.succeed(WalletAccounts)({
  verify: (account) =>
    Effect.suspend(() => {
      const checked = verifyAccount(account)
      return typeof checked === "string" ? Effect.fail(checked) : Effect.succeed(checked)
    }),
  rawAddress: (address) => Effect.sync(() => rawAddressOf(address)),
  signer: (boc) => Effect.sync(() => signerOf(boc))
})
