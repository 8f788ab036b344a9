/**
 * Highload Wallet V3, the TON Foundation's wallet for services that send many payments: no seqno, each
 * external message carries a query id the contract remembers for at least `timeout` seconds (replays
 * rejected with exit code 36), and a batch is its "internal_transfer" message to itself, whose action
 * list (up to 254 out messages) the wallet then sends.
 *
 * Code and layout from ton-blockchain/highload-wallet-contract-v3 (contracts/highload-wallet-v3.func,
 * build/HighloadWalletV3.compiled.json, wrappers/HighloadWalletV3.ts and HighloadQueryId.ts); @ton/ton has
 * no wrapper for it. Its code hash 11acad79...8525 is the one the repository publishes and tonkeeper's
 * tongo lists as wallet_highload_v3r1 (`HighloadWalletV3.test.ts` checks the cell against it).
 */
import {
  type Address,
  beginCell,
  type Cell,
  Cell as CellClass,
  contractAddress,
  Dictionary,
  external,
  internal,
  loadMessage,
  type OutActionSendMsg,
  SendMode,
  storeMessage,
  storeMessageRelaxed,
  storeOutList
} from "@ton/ton"
import { sign } from "@ton/crypto"
import type { TransferMessage } from "./WalletContracts.ts"

const CODE_HEX =
  "b5ee9c7241021001000228000114ff00f4a413f4bcf2c80b01020120020d02014803040078d020d74bc00101c060b0915be101d0d3030171b0915be0fa4030f828c705b39130e0d31f018210ae42e5a4ba9d8040d721d74cf82a01ed55fb04e030020120050a02027306070011adce76a2686b85ffc00201200809001aabb6ed44d0810122d721d70b3f0018aa3bed44d08307d721d70b1f0201200b0c001bb9a6eed44d0810162d721d70b15800e5b8bf2eda2edfb21ab09028409b0ed44d0810120d721f404f404d33fd315d1058e1bf82325a15210b99f326df82305aa0015a112b992306dde923033e2923033e25230800df40f6fa19ed021d721d70a00955f037fdb31e09130e259800df40f6fa19cd001d721d70a00937fdb31e0915be270801f6f2d48308d718d121f900ed44d0d3ffd31ff404f404d33fd315d1f82321a15220b98e12336df82324aa00a112b9926d32de58f82301de541675f910f2a106d0d31fd4d307d30cd309d33fd315d15168baf2a2515abaf2a6f8232aa15250bcf2a304f823bbf2a35304800df40f6fa199d024d721d70a00f2649130e20e01fe5309800df40f6fa18e13d05004d718d20001f264c858cf16cf8301cf168e1030c824cf40cf8384095005a1a514cf40e2f800c94039800df41704c8cbff13cb1ff40012f40012cb3f12cb15c9ed54f80f21d0d30001f265d3020171b0925f03e0fa4001d70b01c000f2a5fa4031fa0031f401fa0031fa00318060d721d300010f0020f265d2000193d431d19130e272b1fb00b585bf03"

export const HIGHLOAD_V3_CODE: Cell = CellClass.fromHex(CODE_HEX)

/** The hash the contract's repository publishes for this code. */
export const HIGHLOAD_V3_CODE_HASH = "11acad7955844090f283bf238bc1449871f783e7cc0979408d3f4859483e8525"

/** The repository's recommended subwallet id: apart from the phrase's ordinary wallets (698983191). */
export const HIGHLOAD_SUBWALLET_ID = 0x10ad

/**
 * Seconds a processed query id is remembered (and the longest a message lives). Part of the address,
 * so fixed: one hour, the short end of the repository's 1-24 hour advice (smaller dictionaries, less gas).
 */
export const HIGHLOAD_TIMEOUT = 3600

/** Out messages one internal_transfer carries (the 255th action would be the next internal_transfer). */
export const HIGHLOAD_BATCH_LIMIT = 254

const OP_INTERNAL_TRANSFER = 0xae42e5a4
const BIT_NUMBER_SIZE = 10
const MAX_BIT_NUMBER = 1022
const MAX_SHIFT = 8191
/** Sequence positions 0 .. QUERY_SEQUENCE-1; the very last id (shift 8191, bit 1022) is kept for an emergency withdrawal. */
export const QUERY_SEQUENCE = (MAX_SHIFT + 1) * (MAX_BIT_NUMBER + 1) - 1

/** Query id (shift << 10 | bit number) of a position in the sequence, as the reference's HighloadQueryId counts. */
export const queryIdAt = (position: number): number => {
  const p = ((position % QUERY_SEQUENCE) + QUERY_SEQUENCE) % QUERY_SEQUENCE
  return (Math.floor(p / (MAX_BIT_NUMBER + 1)) << BIT_NUMBER_SIZE) + (p % (MAX_BIT_NUMBER + 1))
}

export const positionOf = (queryId: number): number =>
  (queryId >> BIT_NUMBER_SIZE) * (MAX_BIT_NUMBER + 1) + (queryId & ((1 << BIT_NUMBER_SIZE) - 1))

export class HighloadWalletV3 {
  readonly address: Address
  readonly init: { readonly code: Cell; readonly data: Cell }

  readonly subwalletId: number
  readonly timeout: number

  private constructor(publicKey: Buffer, subwalletId: number, timeout: number) {
    this.subwalletId = subwalletId
    this.timeout = timeout
    const data = beginCell()
      .storeBuffer(publicKey, 32)
      .storeUint(subwalletId, 32)
      .storeUint(0, 1 + 1 + 64) // no old queries, no queries, last clean time 0
      .storeUint(timeout, 22)
      .endCell()
    this.init = { code: HIGHLOAD_V3_CODE, data }
    this.address = contractAddress(0, this.init)
  }

  static create(publicKey: Buffer, subwalletId = HIGHLOAD_SUBWALLET_ID, timeout = HIGHLOAD_TIMEOUT): HighloadWalletV3 {
    return new HighloadWalletV3(publicKey, subwalletId, timeout)
  }
}

/**
 * Query ids the wallet's state shows processed (its `queries` and `old_queries` dictionaries): none of
 * them may be signed again while the contract remembers it. Undefined data (not deployed): none.
 */
export const processedQueryIds = (data: Cell | undefined): ReadonlySet<number> => {
  const used = new Set<number>()
  if (data === undefined) return used
  const slice = data.beginParse()
  slice.skip(256 + 32)
  for (const dict of [
    slice.loadDict(Dictionary.Keys.Uint(13), Dictionary.Values.Cell()),
    slice.loadDict(Dictionary.Keys.Uint(13), Dictionary.Values.Cell())
  ]) {
    for (const [shift, bits] of dict) {
      const row = bits.beginParse()
      const length = Math.min(row.remainingBits, MAX_BIT_NUMBER + 1)
      for (let bit = 0; bit < length; bit++) {
        if (row.loadBit()) used.add((shift << BIT_NUMBER_SIZE) + bit)
      }
    }
  }
  return used
}

/**
 * The signed external-in message of a batch: `messages` as mode 3 actions (an action the balance cannot
 * cover is skipped, the others go) of an internal_transfer that carries the wallet's whole balance to
 * itself (mode 128, as the reference's sendBatch does), so the actions spend from all of it.
 * `validUntil` becomes created_at = validUntil - timeout: the contract then runs the message only while
 * its clock is before validUntil, like an ordinary wallet's valid_until.
 */
export const signedHighloadExternal = (args: {
  readonly contract: HighloadWalletV3
  readonly secretKey: Uint8Array
  readonly queryId: number
  readonly validUntil: number
  readonly deploy: boolean
  readonly messages: ReadonlyArray<TransferMessage>
}): Cell => {
  const { contract } = args
  if (args.messages.length === 0 || args.messages.length > HIGHLOAD_BATCH_LIMIT) {
    throw new RangeError(`A highload batch carries 1 to ${HIGHLOAD_BATCH_LIMIT} messages`)
  }
  const actions: Array<OutActionSendMsg> = args.messages.map((m) => ({
    type: "sendMsg",
    mode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
    outMsg: internal({ to: m.to, value: m.value, bounce: m.bounce, ...(m.body === undefined ? {} : { body: m.body }) })
  }))
  const transferBody = beginCell()
    .storeUint(OP_INTERNAL_TRANSFER, 32)
    .storeUint(args.queryId, 64)
    .storeRef(beginCell().store(storeOutList(actions)).endCell())
    .endCell()
  const toSelf = beginCell()
    .store(storeMessageRelaxed(internal({ to: contract.address, value: 0n, bounce: true, body: transferBody })))
    .endCell()
  const inner = beginCell()
    .storeUint(contract.subwalletId, 32)
    .storeRef(toSelf)
    .storeUint(SendMode.CARRY_ALL_REMAINING_BALANCE, 8)
    .storeUint(args.queryId, 23)
    .storeUint(args.validUntil - contract.timeout, 64)
    .storeUint(contract.timeout, 22)
    .endCell()
  const body = beginCell()
    .storeBuffer(sign(inner.hash(), Buffer.from(args.secretKey)))
    .storeRef(inner)
    .endCell()
  const ext = external({ to: contract.address, init: args.deploy ? contract.init : null, body })
  return beginCell().store(storeMessage(ext)).endCell()
}

/** The query id a signed highload external message (a whole Message cell) carries. */
export const queryIdOfExternal = (message: Cell): number => {
  const inner = loadMessage(message.beginParse()).body.beginParse().loadRef().beginParse()
  inner.skip(32 + 8)
  return inner.loadUint(23)
}

export const isInternalTransfer = (body: Cell): boolean => {
  const slice = body.beginParse()
  return slice.remainingBits >= 32 && slice.remainingRefs === 1 && slice.preloadUint(32) === OP_INTERNAL_TRANSFER
}
