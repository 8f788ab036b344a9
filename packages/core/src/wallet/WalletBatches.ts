/**
 * Pays many marketplace invoices from one wallet with one external message (a batch), exactly once
 * per payment key:
 * 1. open batches of the wallet are settled first (after a crash or a lost answer): by the message's
 *    hash on chain, and each payment by its own out message; a payment whose message can never run
 *    any more is looked for by its `Ref#` among the wallet's outgoing messages before it counts as
 *    unpaid, so nothing is ever paid twice (every open payment belongs to a batch: the single-payment
 *    records that came before batches were closed by migration 0026);
 * 2. a key already paid answers its stored payment; a key still open answers `Open` (nothing new);
 * 3. the batch is signed, then stored with every payment's `Ref#`, recipient and amount BEFORE it is
 *    sent; then only that message is looked for (the same message re-sent after a lost answer);
 * 4. per payment: `Paid` (its out message left the wallet), `NotPaid` (its action was skipped, the
 *    message expired or was superseded: retry or refund), or `Open` (not known yet: look again later).
 * A seqno wallet has one batch in flight; a Highload Wallet V3 up to `parallel` (each under its own
 * query id), and each `pay` then settles only the open batches no call of this process is watching.
 */
import { Clock, Context, Duration, Effect, Layer, Option, Result } from "effect"
import {
  type BatchStatus,
  Blockchain,
  type BlockchainError,
  type OutgoingPayment,
  type PreparedBatch,
  type Wallet
} from "../ports/Blockchain.ts"
import {
  type NewWalletPayment,
  type PaymentSettlement,
  type WalletBatch,
  type WalletPayment,
  WalletPayments
} from "../ports/WalletPayments.ts"
import { currentDate } from "../Time.ts"

export interface BatchItem extends Omit<NewWalletPayment, "walletAddress"> {
  /** The marketplace's payload (base64 BOC), forwarded as the message body. */
  readonly payload: string
}

/**
 * What a batch did with one payment: the payment's own state, not an order's outcome (`BatchedPurchases`
 * reads the order's `FulfilmentOutcome` from it and the marketplace's delivery).
 */
export type PaymentResult =
  | {
      readonly _tag: "Paid"
      readonly key: string
      readonly txHash: string
      readonly ref: string
      readonly boc: string | null
      /** The stored payment as read once it was settled paid (the caller need not read it again). */
      readonly payment: WalletPayment
    }
  | { readonly _tag: "NotPaid"; readonly key: string; readonly retryable: boolean; readonly message: string }
  | { readonly _tag: "Open"; readonly key: string; readonly message: string }

export interface WalletBatchSettings {
  /** How long to look for a sent batch on chain before leaving its payments open. */
  readonly confirmWithin: Duration.Duration
  readonly pollEvery: Duration.Duration
  /** Batches of a Highload Wallet V3 in flight at once (a seqno wallet always has one); 1 when unset. */
  readonly parallel?: number
}

export const WalletBatchSettings = Context.Reference<WalletBatchSettings>("core/wallet/WalletBatchSettings", {
  defaultValue: () => ({ confirmWithin: Duration.seconds(75), pollEvery: Duration.millis(1500), parallel: 1 })
})

/** Messages of this wallet that may be in flight at once: a seqno allows one, query ids many. */
export const parallelOf = (wallet: Wallet, parallel: number | undefined): number =>
  wallet.version === "highload-v3" ? Math.max(1, Math.floor(parallel ?? 1)) : 1

const refIn = (comment: string | null) => /Ref#([A-Za-z0-9_-]+)/.exec(comment ?? "")?.[1]

/** The Ref#s found among the wallet's outgoing messages, with the transaction that carried each. */
const paidRefs = (outgoing: ReadonlyArray<OutgoingPayment>) => {
  const refs = new Map<string, OutgoingPayment>()
  for (const m of outgoing) {
    const ref = refIn(m.comment)
    if (ref !== undefined && !refs.has(ref)) refs.set(ref, m)
  }
  return refs
}

export class WalletBatches extends Context.Service<
  WalletBatches,
  {
    /** Pays `items` (at most the wallet's batch limit) in one message; one outcome per item, same order. */
    readonly pay: (wallet: Wallet, items: ReadonlyArray<BatchItem>) => Effect.Effect<ReadonlyArray<PaymentResult>>
    /** Settles the wallet's open batches as far as the chain tells now. */
    readonly reconcile: (wallet: Wallet) => Effect.Effect<void>
    readonly limit: (wallet: Wallet) => number
    /** Batches of the wallet that may be paid at once (`pay` calls running side by side). */
    readonly parallel: (wallet: Wallet) => number
  }
>()("core/wallet/WalletBatches") {
  static readonly layer = Layer.effect(
    WalletBatches,
    Effect.gen(function* () {
      const chain = yield* Blockchain
      const records = yield* WalletPayments
      const settings = yield* WalletBatchSettings
      // Messages (by hash) a `pay` of this process is storing, sending and watching: another `pay` leaves them to it.
      const watching = new Set<string>()

      /** Per payment of a closed batch: paid by this message, or else by any message carrying its Ref#. */
      const settleBatch = (
        batch: WalletBatch,
        payments: ReadonlyArray<WalletPayment>,
        status: Exclude<BatchStatus, { _tag: "Pending" }>
      ) =>
        Effect.gen(function* () {
          const sent = status._tag === "Executed" ? status.sent : []
          const unsent = payments.filter((_, i) => sent[i] !== true)
          const elsewhere =
            unsent.length === 0
              ? new Map<string, OutgoingPayment>()
              : paidRefs(yield* chain.outgoing(batch.walletAddress, batch.prepared.createdAt - 300))
          const settlements: Array<PaymentSettlement> = payments.map((p, i) => {
            if (sent[i] === true && status._tag === "Executed")
              return { key: p.key, state: "paid", txHash: status.txHash, error: null }
            const found = elsewhere.get(p.ref)
            if (found !== undefined && found.to === p.payTo && found.amount === p.amount)
              return { key: p.key, state: "paid", txHash: found.txHash, error: null }
            const why =
              status._tag === "Executed"
                ? "its action was skipped (the wallet's funds ran short); only the network fee was charged"
                : status._tag === "Expired"
                  ? "the message expired before the network ran it"
                  : "another message of the wallet used its seqno or query id"
            return { key: p.key, state: "failed", txHash: null, error: `Not paid: ${why}` }
          })
          yield* records.settle(
            batch.id,
            {
              state: status._tag === "Executed" ? "executed" : status._tag === "Expired" ? "expired" : "superseded",
              txHash: status._tag === "Executed" ? status.txHash : null,
              fee: status._tag === "Executed" ? status.fee : null
            },
            settlements,
            yield* currentDate
          )
          yield* Effect.logInfo(
            `wallet batch ${batch.id}: ${status._tag}, ${settlements.filter((s) => s.state === "paid").length} of ${payments.length} paid`
          )
        }).pipe(
          // The outgoing messages could not be read: the batch stays open and is settled on a later look.
          Effect.catch((error) => Effect.logWarning(`wallet batch ${batch.id} left open: ${error.message}`))
        )

      const reconcile = Effect.fn("WalletBatches.reconcile")(function* (wallet: Wallet) {
        for (const open of yield* records.openBatches(wallet.address)) {
          if (watching.has(open.batch.prepared.externalHash)) continue
          const status = yield* chain
            .confirmBatch(open.batch.prepared)
            .pipe(Effect.orElseSucceed((): BatchStatus => ({ _tag: "Pending" })))
          if (status._tag === "Pending") {
            // Sent or not, re-sending the same message is safe (one seqno, one run).
            yield* chain.send(open.batch.prepared).pipe(Effect.ignore)
            continue
          }
          yield* settleBatch(open.batch, open.payments, status)
        }
      })

      const watch = (prepared: PreparedBatch, resend: boolean) =>
        Effect.gen(function* () {
          const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(settings.confirmWithin)
          let again = resend
          while (true) {
            const status = yield* Effect.result(chain.confirmBatch(prepared))
            if (Result.isSuccess(status) && status.success._tag !== "Pending") return status.success
            if ((yield* Clock.currentTimeMillis) >= deadline) return undefined
            if (again) again = Result.isFailure(yield* Effect.result(chain.send(prepared)))
            yield* Effect.sleep(settings.pollEvery)
          }
        })

      const notPaid = (
        items: ReadonlyArray<BatchItem>,
        error: BlockchainError | string,
        retryable = true
      ): Array<PaymentResult> =>
        items.map((i) => ({
          _tag: "NotPaid",
          key: i.key,
          retryable,
          message: typeof error === "string" ? error : `${error.reason}: ${error.message}`
        }))

      const outcomeOf = (p: WalletPayment, boc: string | null): PaymentResult =>
        p.state === "paid"
          ? { _tag: "Paid", key: p.key, txHash: p.txHash ?? "", ref: p.ref, boc, payment: p }
          : p.state === "failed"
            ? { _tag: "NotPaid", key: p.key, retryable: true, message: p.error ?? "Not paid" }
            : p.state === "held"
              ? { _tag: "Open", key: p.key, message: p.error ?? "The payment is held for an operator" }
              : { _tag: "Open", key: p.key, message: "The payment's message is still being looked for on chain" }

      const send = (wallet: Wallet, items: ReadonlyArray<BatchItem>) =>
        Effect.gen(function* () {
          const prepared = yield* Effect.result(
            chain.prepareBatch(
              wallet,
              items.map((i) => ({
                to: i.payTo,
                amount: i.amount,
                payload: i.payload,
                validUntil: i.validUntil
              }))
            )
          )
          if (Result.isFailure(prepared))
            return notPaid(items, prepared.failure, prepared.failure.reason !== "InvalidPayload")
          const message = prepared.success
          watching.add(message.externalHash)
          return yield* sendStored(wallet, items, message).pipe(
            Effect.ensuring(Effect.sync(() => watching.delete(message.externalHash)))
          )
        })

      const sendStored = (wallet: Wallet, items: ReadonlyArray<BatchItem>, message: PreparedBatch) =>
        Effect.gen(function* () {
          // Stored before it can go out: from here on only this message may pay these keys.
          const stored = yield* Effect.result(
            records.record(
              chain.network,
              message,
              items.map((i) => ({ ...i, walletAddress: wallet.address })),
              yield* currentDate,
              parallelOf(wallet, settings.parallel)
            )
          )
          if (Result.isFailure(stored)) {
            // Never sent: another process has the wallet's open batch, or a key is taken already.
            yield* chain.discard(message)
            return items.map((i): PaymentResult => ({ _tag: "Open", key: i.key, message: stored.failure.message }))
          }
          const batch = stored.success
          yield* Effect.logInfo(
            `wallet batch ${batch.id} signed: ${items.length} payments, ${message.queryId === undefined ? `seqno ${message.seqno}` : `query id ${message.queryId}`}`
          )
          const sent = yield* Effect.result(chain.send(message))
          if (Result.isSuccess(sent)) yield* records.markSent(batch.id, yield* currentDate)
          const status = yield* watch(message, Result.isFailure(sent))
          const payments =
            (yield* records.openBatches(wallet.address)).find((b) => b.batch.id === batch.id)?.payments ?? []
          if (status !== undefined && payments.length > 0) yield* settleBatch(batch, payments, status)
          const settled = yield* byKey(items)
          return items.map((i): PaymentResult => {
            const found = settled.get(i.key)
            return found !== undefined
              ? outcomeOf(found, message.boc)
              : { _tag: "Open", key: i.key, message: "no record" }
          })
        })

      /** The stored payments of a batch's keys, in one read. */
      const byKey = (items: ReadonlyArray<BatchItem>) =>
        Effect.map(records.findMany(items.map((i) => i.key)), (found) => new Map(found.map((p) => [p.key, p])))

      const pay = Effect.fn("WalletBatches.pay")(function* (wallet: Wallet, items: ReadonlyArray<BatchItem>) {
        yield* reconcile(wallet).pipe(
          Effect.catchCause((cause) => Effect.logWarning("wallet batch reconciliation failed", cause))
        )
        const stored = yield* byKey(items)
        const known = items.map((i) => Option.fromUndefinedOr(stored.get(i.key)))
        const fresh = items.filter((_, n) => known[n]?._tag !== "Some" || known[n]?.value.state === "failed")
        const answered = fresh.length === 0 ? [] : yield* Effect.uninterruptible(send(wallet, fresh))
        return items.map((item, n): PaymentResult => {
          const own = answered.find((a) => a.key === item.key)
          if (own !== undefined) return own
          const found = known[n]
          return found?._tag === "Some"
            ? outcomeOf(found.value, null)
            : { _tag: "Open", key: item.key, message: "no record" }
        })
      })

      return WalletBatches.of({
        pay,
        reconcile,
        limit: (wallet) => chain.batchLimit(wallet.version),
        parallel: (wallet) => parallelOf(wallet, settings.parallel)
      })
    })
  )
}
