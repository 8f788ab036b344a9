/**
 * Blockchain port: TON wallets resolved from a customer's mnemonic, and transfers that pay exactly once.
 *
 * Contract (what every adapter guarantees and every caller must do):
 * 1. `resolveWallet` turns a phrase into a `Wallet` handle. The key pair lives only inside the handle,
 *    in memory; the handle prints, logs and serialises without it. The phrase is never kept.
 * 2. `prepareTransfer` reads the seqno and signs ONE external message. The result is plain data: the
 *    caller persists it (order id, wallet, seqno, externalHash, validUntil, boc) BEFORE `send`.
 *    Only one transfer per wallet address may be in flight in a process: a second prepare while the
 *    previous one is neither confirmed, failed nor expired fails with reason `Busy`.
 * 3. `send` posts exactly that BOC. Re-sending the same BOC is always safe (the seqno stops a second
 *    execution). After `NetworkError`/`Timeout` the message may have landed: the caller must NOT build
 *    a new message; it re-sends the same BOC or calls `confirm`. `Rejected` with exit code 33/133 on
 *    a re-send means the seqno is used (maybe by this very message): ask `confirm`, never assume.
 * 4. `confirm` looks the message up by its normalized external hash (TEP-467) and reports:
 *    `Confirmed` (paid: not aborted, no skipped action, out message present), `Failed` (executed or
 *    superseded without paying: safe to build a new message), `Pending` (not seen yet: ask again),
 *    `Expired` (valid_until passed with the seqno unchanged: it can never execute, safe to rebuild).
 *    `Confirmed` is the sender's side: a bounceable address (EQ.., raw) of an undeployed account
 *    sends the coins back in a later transaction, as the address asked for.
 * After a restart the in-process guard is gone: confirm every persisted unfinished transfer of a
 * wallet before preparing a new one for it.
 * Amounts are integer nanoton; addresses are user-friendly strings as the user gave or the adapter made.
 */
import { Context, type Effect, Redacted, Schema } from "effect"
import { Nanoton } from "../money/Nanoton.ts"
import type { PayerAccount } from "./Marketplace.ts"

export { Nanoton }

/** Wallet contracts: customers' wallets are v4r2 or v5r1; the service's hot wallet may also be a Highload Wallet V3. */
export const WalletVersion = Schema.Literals(["v4r2", "v5r1", "highload-v3"])
export type WalletVersion = typeof WalletVersion.Type

/** How the phrase was turned into a key: TON-native (12 or 24 words) or BIP39 m/44'/607'/0'. */
export const MnemonicKind = Schema.Literals(["ton", "bip39"])
export type MnemonicKind = typeof MnemonicKind.Type

export const AccountStatus = Schema.Literals(["active", "uninit", "frozen"])
export type AccountStatus = typeof AccountStatus.Type

export class BlockchainError extends Schema.TaggedError<BlockchainError>()("BlockchainError", {
  reason: Schema.Literals([
    "InvalidMnemonic", // no kind of phrase validates (wrong words, checksum, length)
    "WalletNotFound", // valid phrase but no funded, non-frozen wallet of any version
    "VersionMismatch", // the funded wallet is of another version than the one requested
    "Frozen", // the only funded wallet is frozen
    "InsufficientFunds", // balance < amount + fee reserve
    "InvalidAddress", // recipient address does not parse
    "InvalidAmount", // amount is not positive
    "InvalidPayload", // payload is not a base64 BOC, or both comment and payload were given
    "Busy", // another transfer of this wallet is still in flight (direct surface: PENDING_TRANSACTION)
    "Rejected", // the chain refused the external message (see exitCode)
    "NetworkError", // the node could not be reached or answered garbage; outcome of a send unknown
    "Timeout", // the node did not answer in time; outcome of a send unknown
    "Overloaded" // too many phrases are being derived at once: nothing was looked at, retry shortly
  ]),
  message: Schema.String,
  exitCode: Schema.optionalKey(Schema.Int),
  /** WalletNotFound: where the phrase's wallets would be, one per version, so a new user can fund one. */
  addresses: Schema.optionalKey(Schema.Array(Schema.Struct({ version: WalletVersion, address: Schema.String })))
}) {}

/** Chain state of an address. A never-used address is `uninit` with balance 0. */
export const AccountState = Schema.Struct({
  address: Schema.String,
  status: AccountStatus,
  balance: Nanoton,
  seqno: Schema.Int, // 0 unless active
  /** Chain time (unix seconds) of the block the node answered from: how far it has seen. */
  syncTime: Schema.optionalKey(Schema.Int)
})
export type AccountState = typeof AccountState.Type

/** Raw ed25519 key pair; adapters put it in a Wallet, nobody else should touch it. */
export interface WalletKey {
  readonly publicKey: Uint8Array
  readonly secretKey: Uint8Array
}

const keySlot: unique symbol = Symbol.for("core/ports/Blockchain/WalletKey")

/**
 * A resolved wallet. Public fields are safe to log; the key sits behind a symbol in a Redacted and is
 * dropped by JSON.stringify, util.inspect and String(). Only the adapter that made it reads the key.
 */
export class Wallet {
  readonly address: string
  readonly version: WalletVersion
  readonly kind: MnemonicKind
  readonly status: AccountStatus
  readonly balance: Nanoton
  readonly [keySlot]: Redacted.Redacted<WalletKey>

  constructor(fields: {
    readonly address: string
    readonly version: WalletVersion
    readonly kind: MnemonicKind
    readonly status: AccountStatus
    readonly balance: Nanoton
    readonly key: WalletKey
  }) {
    this.address = fields.address
    this.version = fields.version
    this.kind = fields.kind
    this.status = fields.status
    this.balance = fields.balance
    this[keySlot] = Redacted.make(fields.key, { label: "WalletKey" })
  }

  /**
   * The same wallet (same key, still in its Redacted) as the chain shows it now: a wallet resolved
   * once (the service's hot wallet) is refreshed before each payment without its phrase.
   */
  withState(state: { readonly status: AccountStatus; readonly balance: Nanoton }): Wallet {
    return new Wallet({ ...this, status: state.status, balance: state.balance, key: Wallet.key(this) })
  }

  /** For adapters only: the key pair this wallet signs with. */
  static key(wallet: Wallet): WalletKey {
    return Redacted.value(wallet[keySlot])
  }

  toJSON(): unknown {
    return {
      address: this.address,
      version: this.version,
      kind: this.kind,
      status: this.status,
      balance: String(this.balance)
    }
  }

  toString(): string {
    return `Wallet(${this.version} ${this.address})`
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString()
  }
}

export interface TransferRequest {
  readonly to: string
  readonly amount: Nanoton
  /** Plain text comment (op 0). Mutually exclusive with `payload`. */
  readonly comment?: string
  /** Base64 BOC of a body cell (e.g. Fragment's payload), forwarded byte for byte. */
  readonly payload?: string
  /** Unix seconds; the adapter uses min(validUntil, now + its TTL). */
  readonly validUntil?: number
}

/** A signed external message; plain data so the caller can persist it before sending. */
export const PreparedTransfer = Schema.Struct({
  wallet: Schema.String, // sender address (user-friendly)
  to: Schema.String,
  amount: Nanoton,
  bounce: Schema.Boolean,
  seqno: Schema.Int,
  createdAt: Schema.Int, // unix seconds when it was signed
  validUntil: Schema.Int, // unix seconds; after it (and the seqno unchanged) the message is dead
  externalHash: Schema.String, // hex TEP-467 normalized hash of the external-in message
  boc: Schema.String // base64 BOC of the external message, deploy StateInit included when needed
})
export type PreparedTransfer = typeof PreparedTransfer.Type

export const TransferStatus = Schema.Union([
  Schema.TaggedStruct("Confirmed", {
    txHash: Schema.String, // hex hash of the wallet's transaction
    lt: Schema.String, // logical time, decimal
    fee: Nanoton, // everything the sender paid beyond `amount` (tx fees + forward fee)
    utime: Schema.Int
  }),
  Schema.TaggedStruct("Failed", {
    // Aborted/SkippedAction/NoOutMessage: it ran without paying and cannot run again (seqno used or
    // expired); Superseded: another message took this seqno. Either way it will never pay.
    reason: Schema.Literals(["Aborted", "SkippedAction", "NoOutMessage", "Superseded"]),
    txHash: Schema.optionalKey(Schema.String),
    exitCode: Schema.optionalKey(Schema.Int)
  }),
  Schema.TaggedStruct("Pending", {}), // not seen yet and may still execute: ask again later
  Schema.TaggedStruct("Expired", {}) // valid_until passed, seqno unchanged: can never execute
])
export type TransferStatus = typeof TransferStatus.Type

/**
 * One external message that carries several transfers (a batch): V5R1 up to 255 actions, Highload
 * Wallet V3 up to 254, V4R2 up to 4 messages. Plain data, persisted with its transfers BEFORE it is
 * sent, like a `PreparedTransfer`.
 */
export const PreparedBatch = Schema.Struct({
  wallet: Schema.String,
  /** The wallet's seqno the message uses (0 for a Highload Wallet V3, which has none). */
  seqno: Schema.Int,
  /** Highload Wallet V3 only: the query id the message carries, never signed twice while the wallet remembers it. */
  queryId: Schema.optionalKey(Schema.Int),
  createdAt: Schema.Int,
  validUntil: Schema.Int,
  externalHash: Schema.String,
  boc: Schema.String,
  /** In the order of the requests: each transfer's recipient (user-friendly), amount and body hash (hex). */
  transfers: Schema.Array(Schema.Struct({ to: Schema.String, amount: Nanoton, bodyHash: Schema.String }))
})
export type PreparedBatch = typeof PreparedBatch.Type

/** A message that left a wallet: for finding a payment by what it carries (a marketplace `Ref#`). */
export interface OutgoingPayment {
  readonly to: string
  readonly amount: Nanoton
  readonly bodyHash: string
  /** The text comment (op 0) of the body, if it is one. */
  readonly comment: string | null
  readonly txHash: string
  readonly utime: number
}

export const BatchStatus = Schema.Union([
  /**
   * The wallet ran the message (once: its seqno is used). `sent[i]`: transfer i left the wallet (an out
   * message to its recipient, its amount, its body); false: its action was skipped (funds ran short)
   * or the run aborted, so it will never pay.
   */
  Schema.TaggedStruct("Executed", {
    txHash: Schema.String,
    lt: Schema.String,
    fee: Nanoton,
    utime: Schema.Int,
    sent: Schema.Array(Schema.Boolean)
  }),
  /** Another message took the seqno or query id (the phrase used elsewhere): none of it will ever pay. */
  Schema.TaggedStruct("Superseded", {}),
  Schema.TaggedStruct("Pending", {}),
  Schema.TaggedStruct("Expired", {})
])
export type BatchStatus = typeof BatchStatus.Type

export class Blockchain extends Context.Service<
  Blockchain,
  {
    /** "mainnet" | "testnet" | "sandbox": shown to users so sandbox money is never mistaken for real. */
    readonly network: "mainnet" | "testnet" | "sandbox"
    readonly resolveWallet: (
      mnemonic: Redacted.Redacted<string>,
      options?: { readonly version?: WalletVersion }
    ) => Effect.Effect<Wallet, BlockchainError>
    /** Validates an address; returns it user-friendly with its own bounce flag (raw -> bounceable). */
    readonly parseAddress: (address: string) => Effect.Effect<string, BlockchainError>
    readonly prepareTransfer: (
      wallet: Wallet,
      request: TransferRequest
    ) => Effect.Effect<PreparedTransfer, BlockchainError>
    /** Posts a prepared message (a transfer's or a batch's) as it was signed. */
    readonly send: (prepared: { readonly boc: string }) => Effect.Effect<void, BlockchainError>
    readonly confirm: (prepared: PreparedTransfer) => Effect.Effect<TransferStatus, BlockchainError>
    readonly balance: (address: string) => Effect.Effect<Nanoton, BlockchainError>
    readonly accountState: (address: string) => Effect.Effect<AccountState, BlockchainError>
    /** How many transfers one message of this wallet version may carry (V5R1 255, Highload V3 254, V4R2 4). */
    readonly batchLimit: (version: WalletVersion) => number
    /**
     * Signs ONE external message carrying every request (at most `batchLimit`), under the same rules as
     * `prepareTransfer` (one message in flight per wallet: `Busy`; balance for all of them plus fees).
     */
    readonly prepareBatch: (
      wallet: Wallet,
      requests: ReadonlyArray<TransferRequest>
    ) => Effect.Effect<PreparedBatch, BlockchainError>
    /**
     * Frees the wallet for a new message: `prepared` was never sent and never will be (its record was
     * refused). Without it, the wallet stays busy until the message expires.
     */
    readonly discard: (prepared: { readonly wallet: string; readonly externalHash: string }) => Effect.Effect<void>
    /** Looks the batch up by its normalized external hash; per transfer, whether it left the wallet. */
    readonly confirmBatch: (prepared: PreparedBatch) => Effect.Effect<BatchStatus, BlockchainError>
    /** Messages that left `wallet` in transactions since `since` (unix seconds), newest first. */
    readonly outgoing: (wallet: string, since: number) => Effect.Effect<ReadonlyArray<OutgoingPayment>, BlockchainError>
    /**
     * The TON Connect description (raw address, public key, the StateInit that made the address) of a
     * deployed v4r2 / v5r1 wallet, read from its state on chain: what a buyer who only names an address
     * is quoted for. Undefined when the address holds no such wallet (never sent anything, another contract).
     */
    readonly walletAccount: (address: string) => Effect.Effect<PayerAccount | undefined, BlockchainError>
  }
>()("core/ports/Blockchain") {}
