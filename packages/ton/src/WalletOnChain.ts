/**
 * A deployed wallet's TON Connect description read from the chain, for a buyer who only names an
 * address: its code says the version, its data the public key, and the StateInit rebuilt from them
 * (the default wallet id of that version and network) must make exactly that address.
 */
import type { BlockchainError } from "@resale/core/ports/Blockchain.ts"
import type { PayerAccount } from "@resale/core/ports/Marketplace.ts"
import type { Address, Cell } from "@ton/ton"
import { Effect } from "effect"
import type { ChainClient } from "./ChainClient.ts"
import { contractAccount } from "./PayerAccount.ts"
import { expectedCodeHash, walletContract } from "./WalletContracts.ts"

/** The public key in a wallet's data: v4r2 `seqno:32 subwallet:32 key:256`, v5r1 `signature_allowed:1 seqno:32 id:32 key:256`. */
const publicKeyIn = (version: "v4r2" | "v5r1", data: Cell): Buffer | undefined => {
  try {
    const slice = data.beginParse()
    if (version === "v5r1") slice.skip(1)
    slice.skip(64)
    return slice.loadBuffer(32)
  } catch {
    // data of another layout
    return undefined
  }
}

export const walletAccountOf = (
  client: ChainClient,
  address: Address
): Effect.Effect<PayerAccount | undefined, BlockchainError> =>
  Effect.map(client.account(address), (raw) => {
    if (raw.status !== "active" || raw.data === undefined) return undefined
    const version = (["v4r2", "v5r1"] as const).find((v) => expectedCodeHash(v) === raw.codeHash)
    if (version === undefined) return undefined
    const publicKey = publicKeyIn(version, raw.data)
    if (publicKey === undefined) return undefined
    const contract = walletContract(version, publicKey, client.networkGlobalId)
    if (!contract.address.equals(address)) return undefined
    return contractAccount(contract, publicKey)
  })
