/**
 * A signer that stays with the bot: the wallet road's client side. The bot keeps its own key pair;
 * the service only ever sees the TON Connect `Account` (address, public key, StateInit) and the
 * signed message. `pay` does what a TON Connect wallet app does with a `sendTransaction` request
 * (sign exactly its messages, valid until its `validUntil`, pay gas separately), broadcasts the
 * message through a toncenter v2 endpoint and reports its `boc` to `/wallet/report`.
 */
import {
  Address,
  beginCell,
  Cell,
  external,
  internal,
  loadStateInit,
  SendMode,
  storeMessage,
  storeStateInit,
  TonClient,
  WalletContractV4,
  WalletContractV5R1
} from "@ton/ton"
import type { DirectClient } from "./index.ts"

export type WalletVersion = "v4r2" | "v5r1"

/** The bot's Ed25519 key pair (e.g. `mnemonicToPrivateKey(words)` of @ton/crypto, run by the bot). */
export interface BotKeys {
  readonly publicKey: Buffer
  readonly secretKey: Buffer
}

/** TON Connect's `sendTransaction` request, as `/stars/quote` (and the other quotes) answer it. */
export interface TonConnectTransaction {
  readonly validUntil: number
  readonly from?: string
  readonly network?: string
  readonly messages: ReadonlyArray<{
    readonly address: string
    readonly amount: string
    readonly payload?: string
    readonly stateInit?: string
  }>
}

/** TON Connect's `Account`: what the quote operations take as `account`. */
export interface TonConnectAccount {
  readonly address: string
  readonly publicKey: string
  readonly walletStateInit: string
  readonly chain: string
}

export interface WalletSignerOptions {
  readonly keys: BotKeys
  readonly version: WalletVersion
  /** toncenter v2 JSON-RPC, e.g. https://toncenter.com/api/v2/jsonRPC (the sandbox serves the same). */
  readonly toncenter: { readonly endpoint: string; readonly apiKey?: string }
  /** Where the signed message is reported (`directClient(baseUrl)`). */
  readonly direct: DirectClient
  /** TON Connect's chain id the account names: -239 mainnet (default), -3 testnet. */
  readonly chain?: "-239" | "-3"
  /**
   * The most one transaction may send, in nanoton (all its messages together): what a person checks
   * on a wallet app's confirmation screen, the bot checks here, so not even a compromised service can
   * make it sign more. No limit when absent.
   */
  readonly maxNanoton?: bigint
}

const contractOf = (keys: BotKeys, version: WalletVersion) =>
  version === "v4r2"
    ? WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey })
    : WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey })

/**
 * Refuses what a wallet app refuses (a request for another wallet, or one already past its deadline)
 * and what its owner would refuse on the confirmation screen (more than `maxNanoton`).
 */
const checkRequest = (
  transaction: TonConnectTransaction,
  own: Address,
  nowSeconds: number,
  maxNanoton: bigint | undefined
) => {
  if (transaction.from !== undefined && !Address.parse(transaction.from).equals(own)) {
    throw new Error(`the transaction is for ${transaction.from}, not this wallet (${own.toRawString()})`)
  }
  if (transaction.validUntil <= nowSeconds) {
    throw new Error(`the transaction expired at ${transaction.validUntil}: ask for a new quote`)
  }
  if (transaction.messages.length === 0) throw new Error("the transaction has no messages")
  const total = transaction.messages.reduce((sum, m) => sum + BigInt(m.amount), 0n)
  if (maxNanoton !== undefined && total > maxNanoton) {
    throw new Error(`the transaction sends ${total} nanoton, more than this signer's limit of ${maxNanoton}`)
  }
}

export const walletSigner = (options: WalletSignerOptions) => {
  const contract = contractOf(options.keys, options.version)
  const own = contract.address
  const client = new TonClient({
    endpoint: options.toncenter.endpoint,
    ...(options.toncenter.apiKey === undefined ? {} : { apiKey: options.toncenter.apiKey })
  })
  const account: TonConnectAccount = {
    address: own.toRawString(),
    publicKey: options.keys.publicKey.toString("hex"),
    walletStateInit: beginCell().store(storeStateInit(contract.init)).endCell().toBoc().toString("base64"),
    chain: options.chain ?? "-239"
  }

  const seqno = async (): Promise<number> => {
    const state = await client.getContractState(own)
    return state.state === "active" ? await client.open(contract).getSeqno() : 0
  }

  /** The signed external message (base64 BOC) for the request: what TON Connect answers as `boc`. */
  const sign = async (transaction: TonConnectTransaction): Promise<string> => {
    checkRequest(transaction, own, Math.floor(Date.now() / 1000), options.maxNanoton)
    const current = await seqno()
    const messages = transaction.messages.map((m) =>
      internal({
        to: Address.parse(m.address),
        value: BigInt(m.amount),
        bounce: Address.isFriendly(m.address) ? Address.parseFriendly(m.address).isBounceable : true,
        ...(m.payload === undefined ? {} : { body: Cell.fromBase64(m.payload) }),
        ...(m.stateInit === undefined ? {} : { init: loadStateInit(Cell.fromBase64(m.stateInit).beginParse()) })
      })
    )
    const args = {
      seqno: current,
      secretKey: options.keys.secretKey,
      messages,
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
      timeout: transaction.validUntil
    }
    const body = contract instanceof WalletContractV4 ? contract.createTransfer(args) : contract.createTransfer(args)
    const message = external({ to: own, init: current === 0 ? contract.init : null, body })
    return beginCell().store(storeMessage(message)).endCell().toBoc().toString("base64")
  }

  /** Hands the signed message to the chain through toncenter. */
  const broadcast = (boc: string): Promise<void> => client.sendFile(Buffer.from(boc, "base64"))

  /** Reports the signed message for the order; the service's answer (the order's status). */
  const report = async (orderId: string, boc: string) => {
    const { data, error, response } = await options.direct.POST("/wallet/report", {
      body: { address: account.address, order_id: orderId, boc }
    })
    if (data === undefined) throw new Error(`/wallet/report answered ${response.status}: ${JSON.stringify(error)}`)
    return data
  }

  /** Signs the answered quote, broadcasts it and reports it: the whole payment, in the bot. */
  const pay = async (quote: { readonly order_id: string; readonly transaction: TonConnectTransaction }) => {
    const boc = await sign(quote.transaction)
    await broadcast(boc)
    return { boc, report: await report(quote.order_id, boc) }
  }

  return { account, address: own, sign, broadcast, report, pay }
}

export type WalletSigner = ReturnType<typeof walletSigner>
