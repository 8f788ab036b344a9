import { Context, Duration, Effect, Layer, Option, Random } from "effect"
import type { OrderId } from "../ids.ts"
import { Orders } from "../ports/Orders.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Transactor } from "../ports/Transactor.ts"
import { addMillis, currentDate } from "../Time.ts"
import type { Order, OrderEvidence } from "./Order.ts"
import { OrderNotFound, type OrderTransitionInvalid } from "./OrderErrors.ts"
import { afterUnknown } from "./NextStep.ts"
import { OrderWorkSettings } from "./OrderWorkSettings.ts"

/** What one check of an order with an unknown outcome found out. */
export interface UnknownFacts {
  /** The answer that left it open (marketplace, chain or gift service), short. */
  readonly error: string
  readonly ref?: string | undefined
  readonly txHash?: string | undefined
  readonly chainState?: string | undefined
  /** No later check can tell (the payment is held for an operator): to `needs_attention` at once. */
  readonly attentionNow?: boolean | undefined
}

/** Answers kept per order, newest last. */
const ANSWERS_KEPT = 5

const mergeEvidence = (order: Order, facts: UnknownFacts): OrderEvidence => {
  const before = order.evidence
  return {
    txHash: facts.txHash ?? before?.txHash ?? null,
    ref: facts.ref ?? before?.ref ?? order.fragmentRef ?? order.giftRef,
    chainState: facts.chainState ?? before?.chainState ?? null,
    answers: [...(before?.answers ?? []), facts.error.slice(0, 300)].slice(-ANSWERS_KEPT)
  }
}

/**
 * The worker's side of an order's life, besides claim / complete / fail / defer (`OrderService`):
 * - a claimed order is `processing`; its worker touches it every third of the lease while working,
 *   so an order untouched for a whole lease belonged to a worker that stopped, and `rescueStale`
 *   puts it back to `queued` (attempts unchanged) for another worker to resume (the order's
 *   exactly-once payment key decides what is left to do);
 * - `requeue` hands an order back without counting an attempt (busy wallet, graceful stop);
 * - `unknown` records a check that could not tell whether the goods were delivered: back to the
 *   queue after an exponential, jittered delay, or, past the limit (time AND checks) or when no
 *   later check can tell, to `needs_attention` with what is known (`afterUnknown` decides), and the
 *   operators are told (outbox `order.attention`).
 */
export class OrderWork extends Context.Service<
  OrderWork,
  {
    /** Runs `work` while keeping the order's lease alive. */
    readonly hold: <A, E, R>(orderId: OrderId, work: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
    readonly requeue: (orderId: OrderId, delay: Duration.Duration, note: string | null) => Effect.Effect<void>
    /** Sets or clears a gift order's send marker (`giftRef`) while it is `processing`. */
    readonly setGiftRef: (orderId: OrderId, marker: string | null) => Effect.Effect<void>
    /** `processing` -> `queued` after the backoff, or -> `needs_attention` past the limit. */
    readonly unknown: (
      orderId: OrderId,
      facts: UnknownFacts
    ) => Effect.Effect<Order, OrderNotFound | OrderTransitionInvalid>
    /** Returns orders of stopped workers to the queue; how many. */
    readonly rescueStale: Effect.Effect<number>
  }
>()("core/orders/OrderWork") {
  static readonly layer = Layer.effect(
    OrderWork,
    Effect.gen(function* () {
      const orders = yield* Orders
      const outbox = yield* Outbox
      const tx = yield* Transactor
      const settings = yield* OrderWorkSettings
      const leaseMs = Duration.toMillis(settings.lease)

      // The orders this process carries: one statement keeps all their leases every third of the lease
      // (a rush carries a thousand; one UPDATE each, all due at the same moment, stalled the pool).
      const held = new Map<OrderId, number>()
      const scope = yield* Effect.scope
      const keepLeases = Effect.gen(function* () {
        if (held.size === 0) return
        yield* orders.touch([...held.keys()], yield* currentDate)
      }).pipe(Effect.catchCause((cause) => Effect.logWarning("order leases not kept this round", cause)))
      // Runs while an order is held, so an idle process (or a test's clock) has no loop to turn.
      let keeping = false
      const keeper: Effect.Effect<void> = Effect.suspend(() => {
        if (held.size === 0) {
          keeping = false
          return Effect.void
        }
        return Effect.andThen(
          Effect.andThen(Effect.sleep(Duration.millis(Math.max(10, Math.floor(leaseMs / 3)))), keepLeases),
          keeper
        )
      })

      const hold = <A, E, R>(orderId: OrderId, work: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.acquireUseRelease(
          Effect.suspend(() => {
            held.set(orderId, (held.get(orderId) ?? 0) + 1)
            if (keeping) return Effect.void
            keeping = true
            return Effect.asVoid(
              Effect.forkIn(keeper.pipe(Effect.onInterrupt(() => Effect.sync(() => void (keeping = false)))), scope)
            )
          }),
          () => work,
          () =>
            Effect.sync(() => {
              const n = (held.get(orderId) ?? 1) - 1
              if (n > 0) held.set(orderId, n)
              else held.delete(orderId)
            })
        )

      const requeue = Effect.fn("OrderWork.requeue")(function* (
        orderId: OrderId,
        delay: Duration.Duration,
        note: string | null
      ) {
        const now = yield* currentDate
        yield* orders
          .transition(
            orderId,
            ["processing"],
            "queued",
            {
              nextAttemptAt: Duration.toMillis(delay) <= 0 ? null : addMillis(now, Duration.toMillis(delay)),
              ...(note === null ? {} : { lastError: note.slice(0, 1000) })
            },
            now
          )
          .pipe(Effect.ignore)
      })

      const setGiftRef = Effect.fn("OrderWork.setGiftRef")(function* (orderId: OrderId, marker: string | null) {
        yield* orders
          .transition(orderId, ["processing"], "processing", { giftRef: marker }, yield* currentDate)
          .pipe(Effect.ignore)
      })

      const unknown = Effect.fn("OrderWork.unknown")(function* (orderId: OrderId, facts: UnknownFacts) {
        const now = yield* currentDate
        const random = yield* Random.next
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const found = yield* orders.find(orderId)
            if (Option.isNone(found)) return yield* new OrderNotFound({ orderId })
            const order = found.value
            const step = afterUnknown(order, facts.attentionNow === true, settings, now, random)
            const { since, checks } = step
            const patch = {
              unknownSince: since,
              unknownAttempts: checks,
              evidence: mergeEvidence(order, facts),
              lastError: facts.error.slice(0, 1000),
              // A gift's reference is its send marker, never a Fragment `Ref#` (the columns are kept apart).
              ...(facts.ref === undefined
                ? {}
                : order.item.kind === "gift"
                  ? { giftRef: facts.ref }
                  : { fragmentRef: facts.ref })
            }
            if (step._tag === "Recheck") {
              return yield* orders.transition(
                orderId,
                ["processing"],
                "queued",
                { ...patch, nextAttemptAt: step.at },
                now
              )
            }
            const held = yield* orders.transition(
              orderId,
              ["processing"],
              "needs_attention",
              { ...patch, nextAttemptAt: null },
              now
            )
            yield* outbox.add(
              {
                kind: "order.attention",
                userId: null,
                payload: {
                  orderId: held.id,
                  kind: held.item.kind,
                  recipient: held.recipient,
                  checks,
                  txHash: patch.evidence.txHash,
                  ref: patch.evidence.ref,
                  error: patch.lastError.slice(0, 200)
                }
              },
              now
            )
            return held
          })
        )
      })

      const isStale = (order: Order, now: Date) =>
        order.status === "processing" && order.updatedAt.getTime() < now.getTime() - leaseMs

      const rescueStale = Effect.gen(function* () {
        const now = yield* currentDate
        const { items } = yield* orders.list({ status: ["processing"], offset: 0, limit: 200 })
        let rescued = 0
        for (const candidate of items) {
          if (!isStale(candidate, now)) continue
          // Read again right before: a worker that touched it meanwhile keeps it.
          const fresh = yield* orders.find(candidate.id)
          if (Option.isNone(fresh) || !isStale(fresh.value, yield* currentDate)) continue
          const moved = yield* orders
            .transition(
              candidate.id,
              ["processing"],
              "queued",
              {
                nextAttemptAt: null,
                lastError: fresh.value.lastError ?? "resumed: its worker stopped while processing"
              },
              yield* currentDate
            )
            .pipe(Effect.option)
          if (Option.isSome(moved)) rescued++
        }
        if (rescued > 0) yield* Effect.logWarning(`resumed ${rescued} order(s) of stopped workers`)
        return rescued
      }).pipe(Effect.withSpan("OrderWork.rescueStale"))

      return OrderWork.of({ hold, requeue, setGiftRef, unknown, rescueStale })
    })
  )
}
