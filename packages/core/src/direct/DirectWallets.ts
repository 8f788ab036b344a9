/**
 * What a failed wallet lookup means to a direct caller (spec §7, DESIGN §8). A phrase that is not a
 * valid mnemonic, a frozen wallet or a funded wallet of another version than the one asked for is
 * `WalletInvalid`; a valid phrase whose wallets (every version looked up) hold nothing and were never
 * deployed is short of funds, not wrong: `InsufficientFunds`, naming the address to fund (the one
 * /balance shows for the phrase). Messages hold addresses only, never a word of the phrase.
 */
import type { BlockchainError, WalletVersion } from "../ports/Blockchain.ts"
import { DirectPurchaseError } from "./DirectPurchaseError.ts"

/** The default wallet a new user is shown: the current standard (W5), unless one was asked for. */
export const NEW_WALLET_VERSION: WalletVersion = "v5r1"

export interface WalletAddress {
  readonly version: WalletVersion
  readonly address: string
}

/** Where a phrase never funded should receive its first TON: the version asked for, else W5. */
export const fundingAddress = (
  addresses: ReadonlyArray<WalletAddress>,
  requested: WalletVersion | undefined
): WalletAddress | undefined => addresses.find((a) => a.version === (requested ?? NEW_WALLET_VERSION)) ?? addresses[0]

/**
 * A valid phrase with nothing in any of its wallets. With a version asked for only that wallet can
 * pay, so only its address is named; otherwise the other versions' addresses work too.
 */
export const emptyWallets = (
  addresses: ReadonlyArray<WalletAddress>,
  requested: WalletVersion | undefined
): DirectPurchaseError => {
  const shown = fundingAddress(addresses, requested)
  const others = requested === undefined ? addresses.filter((a) => a !== shown) : []
  const also = others.map((a) => `; its ${a.version} wallet ${a.address} works too`).join("")
  return new DirectPurchaseError({
    reason: "InsufficientFunds",
    message:
      shown === undefined
        ? "The wallets of this phrase hold no TON yet: fund the wallet and try again"
        : `The wallets of this phrase hold no TON yet: send TON to ${shown.address} (${shown.version})${also}, then try again`,
    outcome: "NotPaid"
  })
}

/** A failed `resolveWallet` as the direct surface answers it; nothing was paid in any case. */
export const walletFailure = (error: BlockchainError, requested: WalletVersion | undefined): DirectPurchaseError => {
  switch (error.reason) {
    case "NetworkError":
    case "Timeout":
      return new DirectPurchaseError({
        reason: "TransferFailed",
        message: `The blockchain could not be reached: ${error.message}`,
        outcome: "NotPaid"
      })
    case "Overloaded":
      return new DirectPurchaseError({ reason: "ServiceBusy", message: error.message, outcome: "NotPaid" })
    case "WalletNotFound":
      // The adapter only says this for a phrase that validates (a wrong one is InvalidMnemonic).
      return emptyWallets(error.addresses ?? [], requested)
    default:
      return new DirectPurchaseError({ reason: "WalletInvalid", message: error.message })
  }
}
