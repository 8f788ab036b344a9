import type { FulfilmentOutcome } from "@resale/core/orders/FulfilmentOutcome.ts"
import type { Order } from "@resale/core/orders/Order.ts"
import { OrderFulfilment } from "@resale/core/orders/OrderFulfilment.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Context, Effect, Layer, Option, type Scope } from "effect"

/**
 * The worker's side of fulfilment: only scheduling. It claims due orders and hands each to core's
 * `OrderFulfilment.fulfil`, which carries the attempt and applies its outcome; no order rule lives here.
 */
export class Fulfilment extends Context.Service<
  Fulfilment,
  {
    /** Claims and processes the next due order; false when none was due. */
    readonly runOnce: Effect.Effect<boolean>
    /**
     * Claims up to `limit` due orders in one step and carries each in a fiber of `scope` (interrupted
     * when the scope closes), running `done` when it is over; how many were started (`done` runs for
     * those only).
     */
    readonly startDue: (scope: Scope.Scope, limit: number, done: Effect.Effect<void>) => Effect.Effect<number>
    readonly process: (order: Order) => Effect.Effect<FulfilmentOutcome>
  }
>()("worker/fulfilment/Fulfilment") {
  static readonly layer = Layer.effect(
    Fulfilment,
    Effect.gen(function* () {
      const orders = yield* OrderService
      const fulfilment = yield* OrderFulfilment

      // The claim and the hand-over to core are one step for a stop: a claimed order is never dropped.
      const runOnce = Effect.uninterruptible(
        Effect.gen(function* () {
          const claimed = yield* orders.claimNext
          if (Option.isNone(claimed)) return false
          yield* fulfilment.fulfil(claimed.value)
          return true
        })
      ).pipe(Effect.withSpan("Fulfilment.runOnce"))

      // The claim and the forks are one step for a stop (a claimed order is never dropped); each forked
      // attempt is interruptible, its outcome not.
      const startDue = (scope: Scope.Scope, limit: number, done: Effect.Effect<void>) =>
        Effect.uninterruptible(
          Effect.gen(function* () {
            const claimed = yield* orders.claimDue(limit)
            for (const order of claimed) {
              yield* Effect.forkIn(fulfilment.fulfil(order).pipe(Effect.ensuring(done)), scope, {
                uninterruptible: true
              })
            }
            return claimed.length
          })
        ).pipe(Effect.withSpan("Fulfilment.startDue"))

      return Fulfilment.of({ runOnce, process: fulfilment.fulfil, startDue })
    })
  )
}
