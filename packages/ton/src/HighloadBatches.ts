/**
 * Batches of a Highload Wallet V3: signed with a query id the wallet has not processed (a cursor per
 * wallet that only moves forward, skipping every id the contract's state remembers), and confirmed in
 * two steps: the external message by its normalized hash (the wallet accepted it and sent its
 * internal_transfer to itself), then the wallet's transaction that ran that internal_transfer, whose
 * out messages are the payments (each judged by recipient, amount and body, so a skipped action fails
 * only its own payment). No seqno: messages need not wait for each other; the caller's records still
 * keep one batch of the wallet open at a time.
 */
import {
  type BatchStatus,
  type BlockchainError,
  Nanoton,
  type PreparedBatch,
  type WalletKey
} from "@resale/core/ports/Blockchain.ts"
import { Address, type Cell, type Transaction } from "@ton/ton"
import { Effect } from "effect"
import type { ChainClient } from "./ChainClient.ts"
import {
  HighloadWalletV3,
  isInternalTransfer,
  positionOf,
  processedQueryIds,
  QUERY_SEQUENCE,
  queryIdAt,
  signedHighloadExternal
} from "./HighloadWalletV3.ts"
import { normalizedHashOfBoc, senderFee, sentOf } from "./Transfers.ts"
import { chainFail as fail, ensureFunds, HISTORY_PAGE as PAGE, messageDeadline } from "./WalletChecks.ts"

export interface HighloadKit {
  readonly client: ChainClient
  readonly ttl: number
  readonly margin: number
  readonly reserve: { readonly active: bigint; readonly deploy: bigint }
  readonly maxPages: number
  readonly friendly: (address: Address) => string
  readonly nowSeconds: Effect.Effect<number>
  readonly parseAddress: (text: string) => Effect.Effect<Address, BlockchainError>
  readonly findByHash: (
    wallet: Address,
    hash: string,
    since: number
  ) => Effect.Effect<
    { readonly found: ReadonlyArray<Transaction>; readonly complete: boolean; readonly newest: bigint },
    BlockchainError
  >
}

export interface BatchTransfer {
  readonly to: Address
  readonly friendly: string
  readonly bounce: boolean
  readonly amount: Nanoton
  readonly body: Cell | undefined
  readonly bodyHash: string
  readonly validUntil: number | undefined
}

/** The first page read for a batch's internal_transfer run. */
const FIRST_PAGE = 5

const ran = (tx: Transaction) => {
  const d = tx.description
  return d.type === "generic" && !d.aborted && d.computePhase.type === "vm" && d.computePhase.success
}

export const makeHighloadBatches = (kit: HighloadKit) => {
  const { client } = kit
  /** Next sequence position per wallet (raw address): ids handed out by this process are never handed out again. */
  const cursors = new Map<string, number>()

  /** The next id neither this process signed nor the wallet's state remembers as processed. */
  const allocate = (wallet: string, data: Cell | undefined): number | undefined => {
    const used = processedQueryIds(data)
    // After a restart: past the newest id the wallet remembers (ids are taken in sequence order).
    const start = cursors.get(wallet) ?? (used.size === 0 ? 0 : Math.max(...[...used].map(positionOf)) + 1)
    for (let step = 0; step < QUERY_SEQUENCE; step++) {
      const position = (start + step) % QUERY_SEQUENCE
      if (!used.has(queryIdAt(position))) {
        cursors.set(wallet, position + 1)
        return queryIdAt(position)
      }
    }
    return undefined
  }

  const prepare = Effect.fn("Blockchain.prepareHighloadBatch")(function* (
    key: WalletKey,
    transfers: ReadonlyArray<BatchTransfer>
  ) {
    const contract = HighloadWalletV3.create(Buffer.from(key.publicKey))
    const account = yield* client.account(contract.address)
    if (account.status === "frozen") return yield* fail("Frozen", "The wallet is frozen")
    const deploy = account.status !== "active"
    const total = transfers.reduce((sum, t) => sum + t.amount, 0n)
    // Two transactions per batch (the external, then the internal_transfer) and a share per payment.
    const keep =
      (deploy ? kit.reserve.deploy : kit.reserve.active) + (BigInt(transfers.length) * kit.reserve.active) / 2n
    yield* ensureFunds(account.balance, total, keep)
    const now = yield* kit.nowSeconds
    const validUntil = yield* messageDeadline(
      now,
      kit.ttl,
      transfers,
      "A payment request of the batch has already expired"
    )
    const queryId = allocate(contract.address.toRawString(), account.data)
    if (queryId === undefined)
      return yield* fail("Busy", "Every query id of the wallet is in use until its timeout passes")
    const boc = signedHighloadExternal({
      contract,
      secretKey: key.secretKey,
      queryId,
      validUntil,
      deploy,
      messages: transfers.map((t) => ({ to: t.to, value: t.amount, bounce: t.bounce, body: t.body }))
    })
    return {
      wallet: kit.friendly(contract.address),
      seqno: 0,
      queryId,
      createdAt: now,
      validUntil,
      externalHash: normalizedHashOfBoc(boc),
      boc: boc.toBoc().toString("base64"),
      transfers: transfers.map((t) => ({ to: t.friendly, amount: t.amount, bodyHash: t.bodyHash }))
    } satisfies PreparedBatch
  })

  /** The wallet's transaction that ran the internal_transfer sent at `createdLt` (newer than `after`). */
  const internalRun = (wallet: Address, createdLt: bigint, after: bigint) =>
    Effect.gen(function* () {
      let before: { lt: bigint; hash: Buffer } | undefined
      for (let page = 0; page < kit.maxPages; page++) {
        // It runs right after the external, so among the newest few: a small first page spares parsing
        // the batches before it (each with its hundreds of out messages).
        const limit = page === 0 ? FIRST_PAGE : PAGE
        const txs = yield* client.transactions(wallet, { limit, ...(before === undefined ? {} : { before }) })
        const run = txs.find((tx) => {
          const info = tx.inMessage?.info
          return info?.type === "internal" && info.src.equals(wallet) && info.createdLt === createdLt
        })
        if (run !== undefined) return run
        const last = txs.at(-1)
        if (txs.length < limit || last === undefined || last.lt <= after) return undefined
        before = { lt: last.lt, hash: last.hash() }
      }
      return undefined
    })

  const confirm = Effect.fn("Blockchain.confirmHighloadBatch")(function* (
    prepared: PreparedBatch & { readonly queryId: number }
  ) {
    const wallet = yield* kit.parseAddress(prepared.wallet)
    // State first, history second: whatever the state already shows must then be in the history.
    const account = yield* client.account(wallet)
    const history = yield* kit.findByHash(wallet, prepared.externalHash, prepared.createdAt - 300)
    const accepted = history.found.find(ran) ?? history.found[0]
    if (accepted !== undefined) {
      const toSelf = accepted.outMessages
        .values()
        .find((m) => m.info.type === "internal" && m.info.dest.equals(wallet) && isInternalTransfer(m.body))
      const none = prepared.transfers.map(() => false)
      if (!ran(accepted) || toSelf === undefined || toSelf.info.type !== "internal") {
        // Accepted (its query id is used) but nothing went out: none of it will ever pay.
        return {
          _tag: "Executed",
          txHash: accepted.hash().toString("hex"),
          lt: accepted.lt.toString(),
          fee: Nanoton.make(senderFee(accepted)),
          utime: accepted.now,
          sent: none
        } satisfies BatchStatus
      }
      const run = yield* internalRun(wallet, toSelf.info.createdLt, accepted.lt)
      // Accepted, its internal_transfer not run yet: it runs on the same account in a moment.
      if (run === undefined) return { _tag: "Pending" } satisfies BatchStatus
      return {
        _tag: "Executed",
        txHash: run.hash().toString("hex"),
        lt: run.lt.toString(),
        fee: Nanoton.make(senderFee(accepted) + senderFee(run)),
        utime: run.now,
        sent: sentOf(run, prepared.transfers, (to) => Address.parse(to))
      } satisfies BatchStatus
    }
    // Judged by the node's view of chain time too, so a lagging node cannot make a live message look dead.
    const dead =
      (yield* kit.nowSeconds) > prepared.validUntil + kit.margin && account.syncTime > prepared.validUntil + kit.margin
    const searched = history.complete && history.newest >= account.lastLt
    if (!dead || !searched) return { _tag: "Pending" } satisfies BatchStatus
    // Dead either way; processed means another message of the phrase took its query id.
    return processedQueryIds(account.data).has(prepared.queryId)
      ? ({ _tag: "Superseded" } satisfies BatchStatus)
      : ({ _tag: "Expired" } satisfies BatchStatus)
  })

  return { prepare, confirm }
}
