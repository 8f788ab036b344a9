/**
 * The little a wallet needs from a TON node. `TonBlockchain` builds the whole port on it; the sandbox
 * emulator and toncenter each implement only this, so both run the same resolution, signing and
 * confirmation code.
 */
import type { AccountStatus, BlockchainError } from "@resale/core/ports/Blockchain.ts"
import type { Address, Cell, Transaction } from "@ton/ton"
import type { Effect } from "effect"
import type { NetworkGlobalId } from "./WalletContracts.ts"

export interface RawAccount {
  readonly status: AccountStatus
  readonly balance: bigint
  /** Hex hash of the code cell when active, else undefined. */
  readonly codeHash: string | undefined
  /** The wallet's `seqno` get-method when active, else 0. */
  readonly seqno: number
  /** The contract's data cell when active (a Highload Wallet V3's processed query ids), else undefined. */
  readonly data: Cell | undefined
  /** Chain time (unix seconds) of the state the node answered from: how far it has seen. */
  readonly syncTime: number
  /** Logical time of the account's last transaction in that state (0 when none). */
  readonly lastLt: bigint
}

export interface TransactionPage {
  readonly limit: number
  /** Continue below this transaction (exclusive), for paging back in time. */
  readonly before?: { readonly lt: bigint; readonly hash: Buffer }
}

export interface ChainClient {
  readonly network: "mainnet" | "testnet" | "sandbox"
  readonly networkGlobalId: NetworkGlobalId
  readonly account: (address: Address) => Effect.Effect<RawAccount, BlockchainError>
  /** Rejected (with the exit code when known) when the node refuses the message; NetworkError/Timeout otherwise. */
  readonly sendBoc: (boc: Buffer) => Effect.Effect<void, BlockchainError>
  /** Newest first. */
  readonly transactions: (
    address: Address,
    page: TransactionPage
  ) => Effect.Effect<ReadonlyArray<Transaction>, BlockchainError>
}

/**
 * Exit codes of wallet rejections, V4 and V5R1: what to tell an operator. (A Highload Wallet V3, the
 * hot wallet only, uses 35 for a message whose time has passed and 36 for a processed query id.)
 */
export const rejectionText = (exitCode: number | undefined): string => {
  switch (exitCode) {
    case 33:
    case 133:
      return "the wallet's seqno has moved on (message already processed or replaced)"
    case 35:
    case 135:
      return "the signature does not match this wallet (wrong key)"
    case 36:
    case 136:
      return "the message has expired (valid_until passed)"
    case 0:
      return "the wallet did not accept the message (not deployed and no StateInit, or no balance)"
    default:
      return exitCode === undefined
        ? "the wallet did not accept the message"
        : `the wallet rejected the message (exit code ${exitCode})`
  }
}
