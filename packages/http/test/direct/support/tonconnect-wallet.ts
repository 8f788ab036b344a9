/**
 * A buyer's wallet as a TON Connect wallet app holds it: a key pair the test makes (never seen by the
 * service), the `Account` it hands a dApp on connect, and `sendTransaction`: sign the request as
 * asked (its messages, valid until its `validUntil`), broadcast it, answer the signed message (`boc`).
 */
import type { Nanoton } from "@resale/core/ports/Blockchain.ts"
import { keyPairFromSeed } from "@ton/crypto"
import {
  Address,
  beginCell,
  Cell,
  external,
  internal,
  loadMessage,
  SendMode,
  storeMessage,
  storeStateInit,
  WalletContractV4,
  WalletContractV5R1
} from "@ton/ton"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import type { DirectEnv } from "./DirectTestServer.ts"

export interface TonConnectRequest {
  readonly validUntil: number
  readonly from: string
  readonly messages: ReadonlyArray<{ readonly address: string; readonly amount: string; readonly payload: string }>
}

export const makeBuyer = (env: DirectEnv, version: "v4r2" | "v5r1", funds: Nanoton) =>
  Effect.gen(function* () {
    const keys = keyPairFromSeed(randomBytes(32))
    const contract =
      version === "v4r2"
        ? WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey })
        : WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey })
    const friendly = contract.address.toString({ bounceable: false, urlSafe: true })
    if (funds > 0n) yield* env.sandbox.fund(friendly, funds)
    const account = {
      address: contract.address.toRawString(),
      publicKey: keys.publicKey.toString("hex"),
      walletStateInit: beginCell().store(storeStateInit(contract.init)).endCell().toBoc().toString("base64"),
      chain: "-239"
    }
    const seqno = () =>
      Effect.promise(async () => {
        const state = (await env.emulator.getContract(contract.address)).accountState
        return state?.type === "active" ? await env.emulator.openContract(contract).getSeqno() : 0
      })

    /** Signs the request (TON Connect: pay gas separately, ignore errors), without broadcasting it. */
    const sign = (request: TonConnectRequest) =>
      Effect.gen(function* () {
        const current = yield* seqno()
        const messages = request.messages.map((m) =>
          internal({
            to: Address.parse(m.address),
            value: BigInt(m.amount),
            bounce: Address.isFriendly(m.address) ? Address.parseFriendly(m.address).isBounceable : true,
            body: Cell.fromBase64(m.payload)
          })
        )
        const args = {
          seqno: current,
          secretKey: keys.secretKey,
          messages,
          sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
          timeout: request.validUntil
        }
        const body =
          contract instanceof WalletContractV4 ? contract.createTransfer(args) : contract.createTransfer(args)
        const message = external({ to: contract.address, init: current === 0 ? contract.init : null, body })
        return beginCell().store(storeMessage(message)).endCell().toBoc().toString("base64")
      })

    /** Posts a signed message to the chain, as the wallet app does through its node. */
    const broadcast = (boc: string) =>
      Effect.promise(() => env.emulator.sendMessage(loadMessage(Cell.fromBase64(boc).beginParse())))

    return { account, address: friendly, contract, sign, broadcast, seqno }
  })
