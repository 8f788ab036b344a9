import type { Order } from "@resale/core/orders/Order.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { OrderWork } from "@resale/core/orders/OrderWork.ts"
import { Context, Duration, Effect, Layer, Option, type Scope } from "effect"
import { WorkerConfig } from "../WorkerConfig.ts"
import { GiftFulfilment } from "@resale/core/orders/GiftFulfilment.ts"
import { MarketplaceFulfilment } from "./MarketplaceFulfilment.ts"
import { completionOf, type Outcome } from "./Outcome.ts"

/** A busy wallet frees up within seconds: look again soon, with some spread between workers. */
const busyDelay = (base: Duration.Duration) =>
  Duration.millis(Math.max(50, Duration.toMillis(base)) * (1 + Math.random()))

/**
 * Takes due orders one at a time and carries each through one attempt: stars and premium through
 * the marketplace paid from the hot wallet, gifts through the GiftSender; then applies the outcome
 * with the core order use cases (complete, fail + refund once, defer with backoff; an unknown outcome
 * checked again later or handed to the operators past the limit) or hands the order back without
 * counting an attempt (busy, stop). Holds no order rule of its own. The order's lease is kept alive
 * while it runs, so a dead worker's order is resumed by another one.
 */
export class Fulfilment extends Context.Service<
  Fulfilment,
  {
    /** Claims and processes the next due order; false when none was due. */
    readonly runOnce: Effect.Effect<boolean>
    /**
     * Claims the next due order and carries it in a fiber of `scope` (interrupted when the scope
     * closes), running `done` when it is over; false, and `done` not run, when none was due.
     */
    readonly startNext: (scope: Scope.Scope, done: Effect.Effect<void>) => Effect.Effect<boolean>
    readonly process: (order: Order) => Effect.Effect<Outcome>
  }
>()("worker/fulfilment/Fulfilment") {
  static readonly layer = Layer.effect(
    Fulfilment,
    Effect.gen(function* () {
      const orderService = yield* OrderService
      const work = yield* OrderWork
      const marketplace = yield* MarketplaceFulfilment
      const gifts = yield* GiftFulfilment
      const settings = yield* WorkerConfig

      const apply = (order: Order, outcome: Outcome) => {
        switch (outcome._tag) {
          case "Delivered":
            return orderService.complete(order.id, completionOf(outcome)).pipe(Effect.asVoid)
          case "NotDelivered":
            return (
              outcome.transient
                ? orderService.defer(order.id, outcome.error)
                : orderService.fail(order.id, outcome.error)
            ).pipe(Effect.asVoid)
          case "Busy":
            return work.requeue(order.id, busyDelay(settings.pollInterval), null)
          case "Unknown":
            return work
              .unknown(order.id, {
                error: outcome.error,
                ref: outcome.ref,
                txHash: outcome.txHash,
                chainState: outcome.chainState
              })
              .pipe(Effect.asVoid)
        }
      }

      // `restore` makes the attempt itself interruptible (a stop); the hand-back and the outcome are not.
      const carry = (order: Order, restore: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>) =>
        Effect.gen(function* () {
          const outcome = yield* restore(
            work.hold(order.id, order.item.kind === "gift" ? gifts.attempt(order) : marketplace.attempt(order))
          ).pipe(
            // A stop in the middle hands the order back; the next worker resumes it (same payment key).
            Effect.onInterrupt(() => work.requeue(order.id, Duration.zero, null))
          )
          yield* Effect.logInfo(`order ${order.id}: ${outcome._tag}`).pipe(
            Effect.annotateLogs({ orderId: order.id, kind: order.item.kind, outcome: outcome._tag })
          )
          // Another worker may have resumed and finished it meanwhile: its transition won, ours is void.
          yield* apply(order, outcome).pipe(
            Effect.catchTags({
              OrderTransitionInvalid: (e) => Effect.logWarning(`order ${order.id} moved on meanwhile (${e.from})`),
              OrderNotFound: () => Effect.void
            })
          )
          return outcome
        })

      const process = Effect.fn("Fulfilment.process")(function* (order: Order) {
        return yield* Effect.uninterruptibleMask((restore) => carry(order, restore))
      })

      // The claim and the hand-over to `carry` are one step for a stop: a claimed order is never dropped.
      const runOnce = Effect.uninterruptibleMask((restore) =>
        Effect.gen(function* () {
          const claimed = yield* orderService.claimNext
          if (Option.isNone(claimed)) return false
          yield* carry(claimed.value, restore)
          return true
        })
      ).pipe(Effect.withSpan("Fulfilment.runOnce"))

      // The claim and the fork are one step for a stop; the forked attempt is interruptible, its outcome not.
      const startNext = (scope: Scope.Scope, done: Effect.Effect<void>) =>
        Effect.uninterruptible(
          Effect.gen(function* () {
            const claimed = yield* orderService.claimNext
            if (Option.isNone(claimed)) return false
            yield* Effect.forkIn(carry(claimed.value, Effect.interruptible).pipe(Effect.ensuring(done)), scope, {
              uninterruptible: true
            })
            return true
          })
        ).pipe(Effect.withSpan("Fulfilment.startNext"))

      return Fulfilment.of({ runOnce, process, startNext })
    })
  )
}
