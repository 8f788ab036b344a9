/**
 * Account orders bought from the marketplace and paid from the hot wallet in batches: each order
 * quotes its own invoice (at most `quoteConcurrency` marketplace calls at once), then joins the next batch: while the wallet
 * has as many messages in flight as it allows, the invoices that became ready wait, and the next message carries all of
 * them (up to `batchLimit`). Exactly once per key through `WalletBatches`; then each order's delivery is read
 * from the marketplace with its own evidence. Answers the order's `FulfilmentOutcome` (core decides
 * what the order does next from it: `orders/NextStep.ts`).
 */
import { Clock, Context, Deferred, Duration, Effect, Layer, Option, Queue, Scope, Semaphore } from "effect"
import { formatTon } from "../money/Nanoton.ts"
import type { Wallet } from "../ports/Blockchain.ts"
import { Marketplace, type MarketplaceError, type PayerAccount, type PaymentRequest } from "../ports/Marketplace.ts"
import { type WalletPayment, WalletPayments } from "../ports/WalletPayments.ts"
import { PayerAccounts } from "../ports/PayerAccounts.ts"
import type { PremiumMonths } from "../orders/Order.ts"
import {
  Busy,
  deliveredByReceipt,
  type FulfilmentOutcome,
  NotDelivered,
  refusedByMarketplace,
  Unknown
} from "../orders/FulfilmentOutcome.ts"
import { holdForFullerBatch } from "./SendingRule.ts"
import { type BatchItem, type PaymentResult, WalletBatches } from "./WalletBatches.ts"

/** A marketplace purchase paid from the hot wallet for one charge of an account order. */
export type WalletPurchase = {
  /** Stable per charge across attempts and restarts: the payment's exactly-once key. */
  readonly key: string
  readonly username: string
} & ({ readonly kind: "stars"; readonly units: number } | { readonly kind: "premium"; readonly units: PremiumMonths })

export interface BatchedPurchaseSettings {
  /** Most payments one message carries (the wallet's own limit applies too); 1: one at a time. */
  readonly batchLimit: number
  readonly quoteConcurrency: number
  /**
   * About one block of the chain (some 5 s on mainnet): how long a free slot may hold what is ready
   * for a fuller batch, only when every slot sent within it or in a rush (`SendingRule.ts`). Zero:
   * every free slot sends at once.
   */
  readonly fillWithin: Duration.Duration
  /** How long to read the marketplace for delivery after paying before leaving the order open. */
  readonly deliveryWithin: Duration.Duration
  readonly pollEvery: Duration.Duration
}

export const BatchedPurchaseSettings = Context.Reference<BatchedPurchaseSettings>(
  "core/wallet/BatchedPurchaseSettings",
  {
    defaultValue: () => ({
      batchLimit: 255,
      quoteConcurrency: 8,
      fillWithin: Duration.seconds(5),
      deliveryWithin: Duration.seconds(60),
      pollEvery: Duration.millis(1500)
    })
  }
)

/** How often a collector holding a free slot for a fuller batch looks again. */
const FILL_CHECK = Duration.millis(25)

/** The first pause before reading a paid order's delivery again (the pauses then double up to `pollEvery`). */
const FIRST_REREAD = Duration.millis(200)

/** A stopping worker lets an unsigned invoice go, but does not wait long on the marketplace for it. */
const CANCEL_WITHIN = Duration.seconds(5)

const stopping = (key: string): PaymentResult => ({ _tag: "Open", key, message: "the worker is stopping" })

interface Waiting {
  readonly item: BatchItem
  readonly wallet: Wallet
  readonly done: Deferred.Deferred<PaymentResult>
  /** Flipped synchronously, once: `taken` into a batch by the collector, or `abandoned` by a stop (never signed). */
  state: "waiting" | "taken" | "abandoned"
}

/** The entries still waiting, now taken (one synchronous step: no waiter abandons one half-way). */
const claim = (entries: Iterable<Waiting>): Array<Waiting> => {
  const taken = [...entries].filter((w) => w.state === "waiting")
  for (const w of taken) w.state = "taken"
  return taken
}

export class BatchedPurchases extends Context.Service<
  BatchedPurchases,
  {
    readonly buy: (wallet: Wallet, purchase: WalletPurchase) => Effect.Effect<FulfilmentOutcome>
  }
>()("core/wallet/BatchedPurchases") {
  /** Needs Marketplace, PayerAccounts, WalletPayments and WalletBatches. */
  static readonly layer = Layer.effect(
    BatchedPurchases,
    Effect.gen(function* () {
      const marketplace = yield* Marketplace
      const payers = yield* PayerAccounts
      const records = yield* WalletPayments
      const batches = yield* WalletBatches
      const settings = yield* BatchedPurchaseSettings
      const quotes = yield* Semaphore.make(Math.max(1, settings.quoteConcurrency))
      const reports = yield* Semaphore.make(Math.max(1, settings.quoteConcurrency))
      // Queued invoices a stop handed back unsigned; said last when the layer closes.
      let handedBack = 0
      yield* Effect.addFinalizer(() =>
        handedBack === 0
          ? Effect.void
          : Effect.logInfo(`wallet payments stopped: ${handedBack} queued invoices handed back unsigned`)
      )
      // Closed in reverse: the collectors stop first (what is queued is handed back), then the batches
      // already taken are finished; never one more batch signed while the layer closes.
      const batchScope = yield* Scope.fork(yield* Effect.scope)
      const collectorScope = yield* Scope.fork(yield* Effect.scope)
      // Set first on close: no collector is started for a wallet once the layer is stopping.
      let stopped = false
      yield* Effect.addFinalizer(() => Effect.sync(() => void (stopped = true)))
      // One collector per wallet address: as many messages of the wallet in flight as it allows (one per seqno).
      const collectors = new Map<string, Queue.Queue<Waiting>>()
      // Purchases quoting their invoice, per wallet address: what its collector will have ready soon.
      const quoting = new Map<string, number>()
      const counted = (address: string, by: number) =>
        Effect.sync(() => void quoting.set(address, (quoting.get(address) ?? 0) + by))

      /** Pays one batch of the waiting invoices and hands each waiter its outcome, whatever happens. */
      const payBatch = (taken: ReadonlyArray<Waiting>) =>
        Effect.gen(function* () {
          const wallet = taken[taken.length - 1]!.wallet
          const outcomes = yield* batches
            .pay(
              wallet,
              taken.map((w) => w.item)
            )
            .pipe(
              Effect.catchCause((cause) =>
                Effect.as(
                  Effect.logError("wallet batch failed", cause),
                  taken.map(
                    (w): PaymentResult => ({ _tag: "Open", key: w.item.key, message: "the batch stopped unexpectedly" })
                  )
                )
              )
            )
          yield* Effect.forEach(taken, (w, i) => {
            const outcome: PaymentResult = outcomes[i] ?? { _tag: "Open", key: w.item.key, message: "no outcome" }
            return Deferred.succeed(w.done, outcome)
          })
        })

      // Group commit: while the wallet's slots are busy (one message in flight for a seqno wallet,
      // `parallel` for a Highload V3) the ready invoices queue up; the next message carries all of them
      // (up to the limit). Each waiter only awaits its own outcome, so an order goes on to its delivery
      // as soon as its batch is settled, never behind later batches. A free slot sends at once unless
      // a fuller batch is worth the wait (`SendingRule.ts`: every slot sent within about a block, or a rush).
      const collect = (queue: Queue.Queue<Waiting>, wallet: Wallet) =>
        Effect.gen(function* () {
          const parallel = batches.parallel(wallet)
          const inFlight = yield* Semaphore.make(parallel)
          const limit = Math.max(1, Math.min(settings.batchLimit, batches.limit(wallet)))
          let running = 0
          // When the latest `parallel` messages went out, the oldest first.
          const sent: Array<number> = []
          const fillWithin = Duration.toMillis(settings.fillWithin)
          const gathering = Effect.gen(function* () {
            return holdForFullerBatch({
              now: yield* Clock.currentTimeMillis,
              running,
              parallel,
              sent,
              ready: yield* Queue.size(queue),
              quoting: quoting.get(wallet.address) ?? 0,
              limit,
              fillWithin
            })
          })
          return yield* Effect.gen(function* () {
            yield* Semaphore.take(inFlight, 1)
            while (yield* gathering) yield* Effect.sleep(FILL_CHECK)
            // What is taken is in a batch at once: a stop never finds an invoice taken and unanswered.
            yield* Effect.uninterruptibleMask((restore) =>
              Effect.gen(function* () {
                const taken = claim(yield* restore(Queue.takeN(queue, 1)))
                // Abandoned entries are dropped on the way and take no room in the batch.
                let ready = yield* Queue.size(queue)
                while (taken.length < limit && ready > 0) {
                  // (takeBetween with a minimum of 0 takes nothing at all)
                  taken.push(...claim(yield* Queue.takeBetween(queue, 1, Math.min(limit - taken.length, ready))))
                  ready = yield* Queue.size(queue)
                }
                if (taken.length === 0) return yield* Semaphore.release(inFlight, 1)
                running++
                sent.push(yield* Clock.currentTimeMillis)
                if (sent.length > parallel) sent.shift()
                const over = Effect.andThen(
                  Effect.sync(() => running--),
                  Semaphore.release(inFlight, 1)
                )
                yield* Effect.forkIn(Effect.ensuring(payBatch(taken), over), batchScope, { uninterruptible: true })
              })
            ).pipe(Effect.onInterrupt(() => Semaphore.release(inFlight, 1)))
          }).pipe(Effect.forever)
        }).pipe(
          // A stopping worker: invoices still queued were never signed; their orders go back to the queue.
          // (Offers after this answer false: a purchase started later is handed back at once.)
          Effect.onInterrupt(() =>
            Effect.flatMap(Effect.andThen(Queue.interrupt(queue), Queue.clear(queue)), (left) =>
              Effect.forEach(left, (w) => {
                if (w.state !== "waiting") return Effect.void
                w.state = "abandoned"
                handedBack++
                return Deferred.succeed(w.done, stopping(w.item.key))
              })
            )
          )
        )

      const collectorOf = (wallet: Wallet) =>
        Effect.gen(function* () {
          const known = collectors.get(wallet.address)
          if (known !== undefined || stopped) return known
          const queue = yield* Queue.unbounded<Waiting>()
          const raced = collectors.get(wallet.address)
          if (raced !== undefined) return raced
          collectors.set(wallet.address, queue)
          yield* Effect.forkIn(collect(queue, wallet), collectorScope)
          return queue
        })

      /**
       * Queues the invoice and waits for its batch's outcome. A stop while it is only queued lets it go:
       * it is never signed, its invoice is cancelled and the order is handed back unpaid. Once taken, its
       * batch is signed or being signed: the outcome is waited for whatever happens (recorded as ever).
       */
      const payInBatch = (wallet: Wallet, item: BatchItem) =>
        Effect.uninterruptibleMask((restore) =>
          Effect.gen(function* () {
            const entry: Waiting = { item, wallet, done: yield* Deferred.make<PaymentResult>(), state: "waiting" }
            const queue = yield* collectorOf(wallet)
            if (queue === undefined || !(yield* Queue.offer(queue, entry))) return stopping(item.key)
            const answer = yield* Effect.exit(restore(Deferred.await(entry.done)))
            if (answer._tag === "Success") return answer.value
            if (entry.state === "taken") return yield* Deferred.await(entry.done)
            if (entry.state === "waiting") handedBack++
            entry.state = "abandoned"
            yield* marketplace.cancel(item.kind, item.reqId).pipe(Effect.timeout(CANCEL_WITHIN), Effect.ignore)
            return yield* Effect.failCause(answer.cause)
          })
        )

      // The payer's TON Connect description (a StateInit BOC) is the same for every order of a wallet.
      const described = new Map<string, PayerAccount>()
      const payerOf = (wallet: Wallet) =>
        Effect.suspend(() => {
          const known = described.get(wallet.address)
          return known !== undefined
            ? Effect.succeed(known)
            : Effect.tap(payers.describe(wallet), (p) => Effect.sync(() => void described.set(wallet.address, p)))
        })

      const quote = (wallet: Wallet, request: WalletPurchase) =>
        Effect.gen(function* () {
          const payer = yield* payerOf(wallet)
          const ask: Effect.Effect<PaymentRequest, MarketplaceError> =
            request.kind === "stars"
              ? marketplace.quoteStars({
                  username: request.username,
                  quantity: request.units,
                  payer,
                  batched: settings.batchLimit > 1
                })
              : marketplace.quotePremium({
                  username: request.username,
                  months: request.units,
                  payer,
                  batched: settings.batchLimit > 1
                })
          // At most `quoteConcurrency` at once; the Fragment adapter itself backs off on HTTP 429.
          return yield* quotes.withPermit(ask)
        })

      /** Reads the marketplace until it confirms delivery, or the order's own evidence proves the payment. */
      const deliver = (wallet: Wallet, payment: WalletPayment, boc: string | null, settleOnEvidence: boolean) =>
        Effect.gen(function* () {
          const payer = yield* payerOf(wallet)
          const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(settings.deliveryWithin)
          let report = boc
          let last = "the marketplace has not confirmed delivery"
          // A paid invoice is often done moments after its first read ("processing"): look again soon,
          // then less and less often, up to `pollEvery` (a few more reads per order, no waiting a whole pause).
          let pause = Math.min(Duration.toMillis(FIRST_REREAD), Duration.toMillis(settings.pollEvery))
          while (true) {
            // Bounded like quotes: a settled batch's orders report at once, and quotes share the connections.
            const state = yield* Effect.result(
              reports.withPermit(
                marketplace.confirm({
                  kind: payment.kind,
                  reqId: payment.reqId,
                  ref: payment.ref,
                  ...(report === null ? {} : { boc: report, payer })
                })
              )
            )
            if (state._tag === "Success") {
              const s = state.success
              // The signed message is reported again while no answer came (the same message: harmless).
              if (s._tag === "Delivered" || s.confirm !== "unsent") report = null
              if (s._tag === "Delivered") return delivered(payment, "delivered", null)
              // Unattributable: the session's state will never be this order's again. Pending: only once looking again.
              if (s.confirm === "accepted" && (s._tag === "Unattributable" || settleOnEvidence)) {
                const why = s._tag === "Unattributable" ? s.why : `the marketplace still says "${s.mode}"`
                return delivered(
                  payment,
                  "paid",
                  `Paid to the marketplace: tx ${payment.txHash} sent ${formatTon(payment.amount)} TON to ${payment.payTo} with Ref#${payment.ref}, and it accepted the signed message; delivery not confirmed (${why})`
                )
              }
              last = s._tag === "Pending" ? `the marketplace still says "${s.mode}"` : s.why
            } else last = `the marketplace answered: ${state.failure.message}`
            if ((yield* Clock.currentTimeMillis) >= deadline) break
            yield* Effect.sleep(pause)
            pause = Math.min(pause * 2, Duration.toMillis(settings.pollEvery))
          }
          // Paid and not confirmed: money left, so never a refund; looked at again later.
          return Unknown(`MarketplaceTimeout: Paid on chain (tx ${payment.txHash}), but ${last}`, payment.ref, {
            txHash: payment.txHash,
            chainState: "paid"
          })
        })

      const delivered = (
        payment: WalletPayment,
        delivery: "delivered" | "paid",
        note: string | null
      ): FulfilmentOutcome =>
        deliveredByReceipt({ txHash: payment.txHash ?? "", ref: payment.ref, delivery, deliveryNote: note })

      const bocOf = (payment: WalletPayment) =>
        payment.batchId === null
          ? Effect.succeed(null)
          : Effect.map(records.batch(payment.batchId), (b) =>
              Option.match(b, { onNone: () => null, onSome: (x) => x.prepared.boc })
            )

      const afterPayment = (wallet: Wallet, key: string, boc: string | null, answer?: PaymentResult, again = false) =>
        Effect.gen(function* () {
          // A batch's answer carries the payment it read once settled paid; anything else is read here.
          const found = answer?._tag === "Paid" ? Option.some(answer.payment) : yield* records.find(key)
          if (Option.isNone(found)) {
            // Nothing was stored, so nothing was sent: the wallet was busy elsewhere or could not sign.
            return answer?._tag === "Open"
              ? Busy(answer.message)
              : NotDelivered(
                  answer?._tag !== "NotPaid" || answer.retryable,
                  answer?._tag === "NotPaid" ? answer.message : "Nothing was paid"
                )
          }
          const payment = found.value
          if (payment.state === "paid") return yield* deliver(wallet, payment, boc ?? (yield* bocOf(payment)), again)
          if (payment.state === "failed") {
            yield* marketplace.cancel(payment.kind, payment.reqId).pipe(Effect.ignore)
            return NotDelivered(true, payment.error ?? "Not paid")
          }
          // Held for an operator (migration 0026): no look on chain settles it here, and it is never paid again.
          if (payment.state === "held")
            return Unknown(payment.error ?? "The payment is held for an operator", payment.ref, {
              txHash: payment.txHash,
              chainState: "held",
              attentionNow: true
            })
          return Unknown(
            "The payment's message is not settled on chain yet; it is looked for again before anything else",
            payment.ref,
            { txHash: payment.txHash, chainState: "open" }
          )
        })

      // The wallet's state on chain is read where it matters, when a batch is signed (not per order).
      const buy = Effect.fn("BatchedPurchases.buy")(function* (wallet: Wallet, request: WalletPurchase) {
        const known = yield* records.find(request.key)
        if (Option.isSome(known) && known.value.state === "open") yield* batches.reconcile(wallet)
        if (Option.isSome(known) && known.value.state !== "failed")
          return yield* afterPayment(wallet, request.key, null, undefined, true)
        const quoted = yield* Effect.acquireUseRelease(
          counted(wallet.address, 1),
          () => Effect.result(quote(wallet, request)),
          () => counted(wallet.address, -1)
        )
        if (quoted._tag === "Failure") {
          return refusedByMarketplace(quoted.failure.reason, quoted.failure.message)
        }
        const invoice = quoted.success
        const outcome = yield* payInBatch(wallet, {
          key: request.key,
          kind: request.kind,
          reqId: invoice.reqId,
          ref: invoice.ref,
          payTo: invoice.address,
          amount: invoice.amount,
          validUntil: invoice.validUntil,
          payload: invoice.payload
        })
        const answer = yield* afterPayment(wallet, request.key, outcome._tag === "Paid" ? outcome.boc : null, outcome)
        // Not paid and never stored: the invoice is let go, the next attempt quotes a new one.
        if (answer._tag === "NotDelivered" || answer._tag === "Busy")
          yield* marketplace.cancel(request.kind, invoice.reqId).pipe(Effect.ignore)
        return answer
      })

      return BatchedPurchases.of({ buy })
    })
  )
}
