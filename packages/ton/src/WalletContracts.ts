/**
 * The wallet contracts we sign for, their addresses and code hashes, and the external message of a
 * V4R2 or V5R1 wallet that carries its transfers (mode 3: pay fees separately, ignore action errors;
 * StateInit attached while the wallet is not deployed yet). Highload Wallet V3 signs in
 * `HighloadWalletV3.ts`.
 */
import type { WalletKey, WalletVersion } from "@resale/core/ports/Blockchain.ts"
import {
  type Address,
  beginCell,
  type Cell,
  CellType,
  external,
  internal,
  SendMode,
  storeMessage,
  WalletContractV4,
  WalletContractV5R1
} from "@ton/ton"
import { Effect } from "effect"
import { createPrivateKey, sign } from "node:crypto"
import { HIGHLOAD_BATCH_LIMIT, HighloadWalletV3 } from "./HighloadWalletV3.ts"

/** -239 mainnet (and the sandbox), -3 testnet: part of a V5R1 wallet id, so of its address. */
export type NetworkGlobalId = -239 | -3

/** The versions a phrase is looked up as when no version is asked for (what wallet apps create). */
export const WALLET_VERSIONS: ReadonlyArray<WalletVersion> = ["v4r2", "v5r1"]

export type WalletContract = WalletContractV4 | WalletContractV5R1 | HighloadWalletV3

/** A wallet with a seqno: one external message at a time, signed by @ton/ton. */
export type SeqnoWalletContract = WalletContractV4 | WalletContractV5R1

export function walletContract(
  version: "v4r2" | "v5r1",
  publicKey: Uint8Array,
  networkGlobalId: NetworkGlobalId
): SeqnoWalletContract
export function walletContract(
  version: WalletVersion,
  publicKey: Uint8Array,
  networkGlobalId: NetworkGlobalId
): WalletContract
export function walletContract(
  version: WalletVersion,
  publicKey: Uint8Array,
  networkGlobalId: NetworkGlobalId
): WalletContract {
  const id = `${version} ${networkGlobalId} ${Buffer.from(publicKey).toString("hex")}`
  const known = contracts.get(id)
  if (known !== undefined) {
    contracts.delete(id)
    contracts.set(id, known)
    return known
  }
  const made = newContract(version, Buffer.from(publicKey), networkGlobalId)
  contracts.set(id, made)
  if (contracts.size > REMEMBERED_CONTRACTS) contracts.delete(contracts.keys().next().value!)
  return made
}

/**
 * Contracts already built, by version, network and public key (public data only, least recently used
 * dropped first). @ton/ton parses and hashes the whole wallet code on every `create` (about 2 ms of
 * CPU each), and one direct request needs its wallet's contract three times (two versions looked up,
 * then the one that signs); a bot pays for its customers from the same few wallets.
 */
const contracts = new Map<string, WalletContract>()
const REMEMBERED_CONTRACTS = 1_000

const newContract = (version: WalletVersion, key: Buffer, networkGlobalId: NetworkGlobalId): WalletContract => {
  if (version === "highload-v3") return HighloadWalletV3.create(key)
  return version === "v4r2"
    ? WalletContractV4.create({ workchain: 0, publicKey: key })
    : WalletContractV5R1.create({
        publicKey: key,
        walletId: { networkGlobalId, context: { workchain: 0, walletVersion: "v5r1", subwalletNumber: 0 } }
      })
}

const codeHashes = new Map<WalletVersion, string>(
  (["v4r2", "v5r1", "highload-v3"] as const).map((v) => [
    v,
    walletContract(v, new Uint8Array(32), -239).init.code.hash().toString("hex")
  ])
)

/** Hex hash of the code an active wallet of this version must run. */
export const expectedCodeHash = (version: WalletVersion): string => codeHashes.get(version) ?? ""

/**
 * Hash of the code a contract runs. Wallets may be deployed with a library cell (tag 2 + the code's
 * hash) to save storage; that runs the same code, so it counts as the referenced hash.
 */
export const codeHashOf = (code: Cell): string =>
  code.type === CellType.Library
    ? code.beginParse(true).skip(8).loadBuffer(32).toString("hex")
    : code.hash().toString("hex")

/** Transfers one external message may carry: V5R1 255 out actions, Highload V3 254, V4R2 4 messages. */
export const batchLimitOf = (version: WalletVersion): number =>
  version === "v5r1" ? 255 : version === "highload-v3" ? HIGHLOAD_BATCH_LIMIT : 4

export interface TransferMessage {
  readonly to: Address
  readonly value: bigint
  readonly bounce: boolean
  readonly body: Cell | undefined
}

/**
 * The signed external-in message (a full Message cell, ready for sendBoc). V5R1 gets +2 forced by
 * @ton/ton for externals anyway; V4 gets it from us, so an underfunded action is skipped, never
 * aborted-and-replayable.
 */
export const signedExternal = (args: {
  readonly contract: SeqnoWalletContract
  readonly key: WalletKey
  readonly seqno: number
  readonly validUntil: number
  readonly deploy: boolean
  /** One, or a batch: at most `batchLimitOf` the contract's version. */
  readonly messages: ReadonlyArray<TransferMessage>
}): Effect.Effect<Cell> => {
  const messages = args.messages.map((m) =>
    internal({ to: m.to, value: m.value, bounce: m.bounce, ...(m.body === undefined ? {} : { body: m.body }) })
  )
  const common = {
    seqno: args.seqno,
    signer: signerOf(args.key),
    messages,
    sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
    timeout: args.validUntil
  }
  const contract = args.contract
  return Effect.map(
    Effect.promise(() =>
      contract instanceof WalletContractV4 ? contract.createTransfer(common) : contract.createTransfer(common)
    ),
    (body) => {
      const ext = external({ to: contract.address, init: args.deploy ? contract.init : null, body })
      return beginCell().store(storeMessage(ext)).endCell()
    }
  )
}

/** PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410), so node:crypto can hold it as a key. */
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex")

/**
 * Signs a message cell's hash with node:crypto's Ed25519 (OpenSSL): the same deterministic signature
 * as @ton/crypto's `sign` (tweetnacl in JavaScript, about 10 ms of CPU per signature against 0.1 ms).
 * The key's first 32 bytes are its seed (NaCl's secret key layout); the wrapping buffer is zeroed.
 */
const signerOf = (key: WalletKey) => (message: Cell) => {
  const der = Buffer.concat([ED25519_PKCS8_PREFIX, key.secretKey.subarray(0, 32)])
  try {
    return Promise.resolve(sign(null, message.hash(), createPrivateKey({ key: der, format: "der", type: "pkcs8" })))
  } finally {
    der.fill(0)
  }
}
