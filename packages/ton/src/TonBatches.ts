/**
 * Batches of the Blockchain port: one external message that carries many transfers (V5R1 up to 255
 * out actions, V4R2 up to 4 messages, Highload Wallet V3 up to 254 in `HighloadBatches.ts`), signed with mode 3 each (an action the balance cannot cover is
 * skipped, the others go), confirmed by the normalized external hash, and judged per transfer by its
 * out message. Also the wallet's outgoing messages, for finding a payment by its `Ref#`.
 */
import {
  type BatchStatus,
  type BlockchainError,
  Nanoton,
  type OutgoingPayment,
  type PreparedBatch,
  type PreparedTransfer,
  type TransferRequest,
  type TransferStatus,
  Wallet
} from "@resale/core/ports/Blockchain.ts"
import { Address, beginCell, type Cell } from "@ton/ton"
import { Effect } from "effect"
import type { InFlight } from "./InFlight.ts"
import { type HighloadKit, makeHighloadBatches } from "./HighloadBatches.ts"
import { messageBody, normalizedHashOfBoc, parseRecipient, senderFee, sentOf } from "./Transfers.ts"
import { chainFail as fail, ensureFunds, HISTORY_PAGE as PAGE, messageDeadline } from "./WalletChecks.ts"
import { batchLimitOf, signedExternal, walletContract } from "./WalletContracts.ts"

/** A Highload batch needs less: its messages do not wait for each other (no seqno, no lock). */
export interface BatchKit extends HighloadKit {
  readonly inFlight: InFlight
  /** The single-transfer status of what the wallet has in flight (a batch is held as its first transfer). */
  readonly status: (prepared: PreparedTransfer) => Effect.Effect<TransferStatus, BlockchainError>
}

const commentOf = (body: Cell): string | null => {
  try {
    const slice = body.beginParse()
    if (slice.remainingBits < 32 || slice.loadUint(32) !== 0) return null
    return slice.loadStringTail()
  } catch {
    // not a text comment
    return null
  }
}

export const makeTonBatches = (kit: BatchKit) => {
  const { client, inFlight } = kit
  const highload = makeHighloadBatches(kit)

  const prepareBatch = Effect.fn("Blockchain.prepareBatch")(function* (
    wallet: Wallet,
    requests: ReadonlyArray<TransferRequest>
  ) {
    const limit = batchLimitOf(wallet.version)
    if (requests.length === 0 || requests.length > limit) {
      return yield* fail(
        "InvalidAmount",
        `A ${wallet.version} message carries 1 to ${limit} transfers, not ${requests.length}`
      )
    }
    const messages = yield* Effect.forEach(requests, (request) =>
      Effect.gen(function* () {
        if (request.amount <= 0n) return yield* fail("InvalidAmount", "The amount must be positive")
        const recipient = yield* parseRecipient(request.to)
        const body = yield* messageBody(request)
        return { recipient, body, request }
      })
    )
    const key = Wallet.key(wallet)
    if (wallet.version === "highload-v3") {
      return yield* highload.prepare(
        key,
        messages.map((m) => ({
          to: m.recipient.address,
          friendly: m.recipient.friendly,
          bounce: m.recipient.bounce,
          amount: m.request.amount,
          body: m.body,
          bodyHash: (m.body ?? emptyBody()).hash().toString("hex"),
          validUntil: m.request.validUntil
        }))
      )
    }
    const contract = walletContract(wallet.version, key.publicKey, client.networkGlobalId)
    const lockKey = contract.address.toRawString()
    return yield* inFlight.exclusive(lockKey)(
      Effect.gen(function* () {
        const previous = inFlight.current(lockKey)
        if (previous !== undefined) {
          if ((yield* kit.status(previous))._tag === "Pending")
            return yield* fail("Busy", "Another message from this wallet is still in flight")
          inFlight.release(lockKey, previous.externalHash)
        }
        const account = yield* client.account(contract.address)
        if (account.status === "frozen") return yield* fail("Frozen", "The wallet is frozen")
        const deploy = account.status !== "active"
        const total = requests.reduce((sum, r) => sum + r.amount, 0n)
        // Fees grow with the actions; the reserve is per message plus a share per transfer.
        const keep =
          (deploy ? kit.reserve.deploy : kit.reserve.active) + (BigInt(requests.length - 1) * kit.reserve.active) / 2n
        yield* ensureFunds(account.balance, total, keep)
        const now = yield* kit.nowSeconds
        const validUntil = yield* messageDeadline(
          now,
          kit.ttl,
          requests,
          "A payment request of the batch has already expired"
        )
        const boc = yield* signedExternal({
          contract,
          key,
          seqno: account.seqno,
          validUntil,
          deploy,
          messages: messages.map((m) => ({
            to: m.recipient.address,
            value: m.request.amount,
            bounce: m.recipient.bounce,
            body: m.body
          }))
        })
        const prepared: PreparedBatch = {
          wallet: kit.friendly(contract.address),
          seqno: account.seqno,
          createdAt: now,
          validUntil,
          externalHash: normalizedHashOfBoc(boc),
          boc: boc.toBoc().toString("base64"),
          transfers: messages.map((m) => ({
            to: m.recipient.friendly,
            amount: m.request.amount,
            bodyHash: (m.body ?? emptyBody()).hash().toString("hex")
          }))
        }
        inFlight.hold(lockKey, asTransfer(prepared))
        return prepared
      })
    )
  })

  const confirmBatch = Effect.fn("Blockchain.confirmBatch")(function* (prepared: PreparedBatch) {
    if (prepared.queryId !== undefined) return yield* highload.confirm({ ...prepared, queryId: prepared.queryId })
    const wallet = yield* kit.parseAddress(prepared.wallet)
    const account = yield* client.account(wallet)
    const history = yield* kit.findByHash(wallet, prepared.externalHash, prepared.createdAt - 300)
    const tx =
      history.found.find((t) => {
        const d = t.description
        return d.type === "generic" && d.computePhase.type === "vm" && d.computePhase.success
      }) ?? history.found[0]
    const settle = (status: BatchStatus) => {
      if (status._tag !== "Pending") inFlight.release(wallet.toRawString(), prepared.externalHash)
      return status
    }
    if (tx !== undefined) {
      return settle({
        _tag: "Executed",
        txHash: tx.hash().toString("hex"),
        lt: tx.lt.toString(),
        fee: Nanoton.make(senderFee(tx)),
        utime: tx.now,
        sent: sentOf(tx, prepared.transfers, (to) => parseFriendly(to))
      })
    }
    const dead =
      (yield* kit.nowSeconds) > prepared.validUntil + kit.margin && account.syncTime > prepared.validUntil + kit.margin
    const searched = history.complete && history.newest >= account.lastLt
    if (!dead || !searched) return settle({ _tag: "Pending" })
    return settle(account.seqno > prepared.seqno ? { _tag: "Superseded" } : { _tag: "Expired" })
  })

  const outgoing = Effect.fn("Blockchain.outgoing")(function* (address: string, since: number) {
    const wallet = yield* kit.parseAddress(address)
    const found: Array<OutgoingPayment> = []
    let before: { lt: bigint; hash: Buffer } | undefined
    for (let page = 0; page < kit.maxPages; page++) {
      const txs = yield* client.transactions(wallet, { limit: PAGE, ...(before === undefined ? {} : { before }) })
      for (const tx of txs) {
        for (const m of tx.outMessages.values()) {
          if (m.info.type !== "internal") continue
          found.push({
            to: kit.friendly(m.info.dest),
            amount: Nanoton.make(m.info.value.coins),
            bodyHash: m.body.hash().toString("hex"),
            comment: commentOf(m.body),
            txHash: tx.hash().toString("hex"),
            utime: tx.now
          })
        }
      }
      const last = txs.at(-1)
      if (txs.length < PAGE || last === undefined || last.now < since) break
      before = { lt: last.lt, hash: last.hash() }
    }
    return found
  })

  const discard = (prepared: { readonly wallet: string; readonly externalHash: string }) =>
    Effect.sync(() => {
      try {
        inFlight.release(Address.parse(prepared.wallet).toRawString(), prepared.externalHash)
      } catch {
        // not an address we made: nothing is held for it
      }
    })

  return { prepareBatch, confirmBatch, outgoing, discard, batchLimit: batchLimitOf }
}

const emptyBody = () => beginCell().endCell()
const parseFriendly = (text: string) => Address.parse(text)

/** What the in-flight guard holds for a batch: its first transfer stands for the message. */
const asTransfer = (batch: PreparedBatch): PreparedTransfer => ({
  wallet: batch.wallet,
  to: batch.transfers[0]?.to ?? batch.wallet,
  amount: batch.transfers[0]?.amount ?? Nanoton.make(0n),
  bounce: false,
  seqno: batch.seqno,
  createdAt: batch.createdAt,
  validUntil: batch.validUntil,
  externalHash: batch.externalHash,
  boc: batch.boc
})
