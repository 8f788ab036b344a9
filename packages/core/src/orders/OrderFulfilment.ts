import { Context, Duration, Effect, Layer, Random } from "effect"
import { currentDate } from "../Time.ts"
import { HotWalletPurchases } from "../wallet/HotWalletPurchases.ts"
import { completionOf, type FulfilmentOutcome } from "./FulfilmentOutcome.ts"
import { GiftFulfilment } from "./GiftFulfilment.ts"
import { afterBusy } from "./NextStep.ts"
import type { Order } from "./Order.ts"
import { OrderService } from "./OrderService.ts"
import { OrderWork } from "./OrderWork.ts"
import { OrderWorkSettings } from "./OrderWorkSettings.ts"

/**
 * The fulfilment use case: carries one claimed order through one attempt (stars and premium bought
 * from the marketplace and paid from the hot wallet by `HotWalletPurchases`, gifts sent by
 * `GiftFulfilment`) and applies its `FulfilmentOutcome` with the order use cases, each deciding by
 * `NextStep` on the order read afresh: complete, fail and refund once, retry with backoff, hand back
 * (busy), look again later or hand to the operators (unknown). The order's lease is kept alive while
 * the attempt runs, so a dead worker's order is resumed by another one. The worker only schedules it.
 */
export class OrderFulfilment extends Context.Service<
  OrderFulfilment,
  {
    /**
     * One attempt of a claimed (`processing`) order and its outcome applied. Only the attempt can be
     * interrupted (a stop): the order is then handed back for the next worker (same payment key); the
     * outcome, once known, is always applied.
     */
    readonly fulfil: (order: Order) => Effect.Effect<FulfilmentOutcome>
  }
>()("core/orders/OrderFulfilment") {
  /** Needs OrderService, OrderWork, GiftFulfilment, HotWalletPurchases (and `OrderWorkSettings`). */
  static readonly layer = Layer.effect(
    OrderFulfilment,
    Effect.gen(function* () {
      const orders = yield* OrderService
      const work = yield* OrderWork
      const gifts = yield* GiftFulfilment
      const purchases = yield* HotWalletPurchases
      const settings = yield* OrderWorkSettings

      const attempt = (order: Order) => (order.item.kind === "gift" ? gifts.attempt(order) : purchases.buy(order))

      const apply = (order: Order, outcome: FulfilmentOutcome) => {
        switch (outcome._tag) {
          case "Delivered":
            return Effect.asVoid(orders.complete(order.id, completionOf(outcome)))
          case "NotDelivered":
            return Effect.asVoid(
              outcome.transient ? orders.defer(order.id, outcome.error) : orders.fail(order.id, outcome.error)
            )
          case "Busy":
            return Effect.gen(function* () {
              const now = yield* currentDate
              const step = afterBusy(settings, now, yield* Random.next)
              yield* work.requeue(order.id, Duration.millis(step.at.getTime() - now.getTime()), null)
            })
          case "Unknown":
            return Effect.asVoid(work.unknown(order.id, outcome))
        }
      }

      const fulfil = Effect.fn("OrderFulfilment.fulfil")(function* (order: Order) {
        return yield* Effect.uninterruptible(
          Effect.gen(function* () {
            const outcome = yield* Effect.interruptible(work.hold(order.id, attempt(order))).pipe(
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
        )
      })

      return OrderFulfilment.of({ fulfil })
    })
  )
}
