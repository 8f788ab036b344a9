/**
 * The group commit of `BatchedPurchases`: one collector per wallet address takes the invoices that
 * became ready while the wallet's slots were busy and pays them as the next batch (up to the limit),
 * through `WalletBatches`. A stop hands back what is only queued, never signed.
 */
import { Clock, Deferred, Duration, Effect, Queue, Scope, Semaphore } from "effect"
import type { Wallet } from "../ports/Blockchain.ts"
import { Marketplace } from "../ports/Marketplace.ts"
import { BatchedPurchaseSettings } from "./BatchedPurchaseSettings.ts"
import { holdForFullerBatch } from "./SendingRule.ts"
import { type BatchItem, type PaymentResult, WalletBatches } from "./WalletBatches.ts"

/** How often a collector holding a free slot for a fuller batch looks again. */
const FILL_CHECK = Duration.millis(25)

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

/**
 * Builds the collectors of a `BatchedPurchases` layer, in its scope: `payInBatch` queues an invoice and
 * waits for its batch; `counted` keeps the number of purchases still quoting per wallet address.
 */
export const makeBatchCollector = Effect.gen(function* () {
  const marketplace = yield* Marketplace
  const batches = yield* WalletBatches
  const settings = yield* BatchedPurchaseSettings
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

  return { payInBatch, counted }
})
