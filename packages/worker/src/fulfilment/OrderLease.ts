import type { OrderId } from "@resale/core/ids.ts"
import type { Order } from "@resale/core/orders/Order.ts"
import { Orders } from "@resale/core/ports/Orders.ts"
import { addMillis, currentDate } from "@resale/core/Time.ts"
import { Context, Duration, Effect, Layer, Option } from "effect"
import { WorkerConfig } from "../WorkerConfig.ts"

/**
 * Worker glue over the `Orders` port for what core's OrderService leaves to the worker:
 * - a claimed order is `processing`; its worker touches it (`updatedAt`) every third of the lease
 *   while it works on it, so an order untouched for a whole lease belonged to a worker that died;
 * - `rescueStale` puts such orders back to `queued` (attempts unchanged), where `claimNext`
 *   (FOR UPDATE SKIP LOCKED) gives each to exactly one worker, which resumes it: the exactly-once
 *   payment record of the order (same key, same attempt) decides what is left to do;
 * - `requeue` hands an order back without counting an attempt (busy wallet, unknown outcome,
 *   graceful stop).
 */
export class OrderLease extends Context.Service<OrderLease, {
  /** Runs `work` while keeping the order's lease alive. */
  readonly hold: <A, E, R>(order: Order, work: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  readonly requeue: (orderId: OrderId, delay: Duration.Duration, note: string | null) => Effect.Effect<void>
  /** Sets or clears the order's reference while it is `processing`. */
  readonly setReference: (orderId: OrderId, reference: string | null) => Effect.Effect<void>
  /** Returns orders of dead workers to the queue; how many. */
  readonly rescueStale: Effect.Effect<number>
}>()("worker/fulfilment/OrderLease") {
  static readonly layer = Layer.effect(
    OrderLease,
    Effect.gen(function*() {
      const orders = yield* Orders
      const settings = yield* WorkerConfig
      const leaseMs = Duration.toMillis(settings.orderLease)

      const touch = (orderId: OrderId) =>
        Effect.flatMap(currentDate, (now) => orders.transition(orderId, ["processing"], "processing", {}, now))

      const hold = <A, E, R>(order: Order, work: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.scoped(Effect.gen(function*() {
          // Stops by itself once the order left `processing`.
          yield* touch(order.id).pipe(
            Effect.delay(Duration.millis(Math.max(10, Math.floor(leaseMs / 3)))),
            Effect.forever,
            Effect.ignore,
            Effect.forkScoped
          )
          return yield* work
        }))

      const requeue = Effect.fn("OrderLease.requeue")(function*(orderId: OrderId, delay: Duration.Duration, note: string | null) {
        const now = yield* currentDate
        yield* orders.transition(orderId, ["processing"], "queued", {
          nextAttemptAt: Duration.toMillis(delay) <= 0 ? null : addMillis(now, Duration.toMillis(delay)),
          ...(note === null ? {} : { lastError: note.slice(0, 1000) })
        }, now).pipe(Effect.ignore)
      })

      const setReference = Effect.fn("OrderLease.setReference")(function*(orderId: OrderId, reference: string | null) {
        yield* orders.transition(orderId, ["processing"], "processing", { fragmentRef: reference }, yield* currentDate)
          .pipe(Effect.ignore)
      })

      const isStale = (order: Order, now: Date) =>
        order.status === "processing" && order.updatedAt.getTime() < now.getTime() - leaseMs

      const rescueStale = Effect.gen(function*() {
        const now = yield* currentDate
        const { items } = yield* orders.list({ status: ["processing"], offset: 0, limit: 200 })
        let rescued = 0
        for (const candidate of items) {
          if (!isStale(candidate, now)) continue
          // Read again right before: a worker that touched it meanwhile keeps it.
          const fresh = yield* orders.find(candidate.id)
          if (Option.isNone(fresh) || !isStale(fresh.value, yield* currentDate)) continue
          const moved = yield* orders.transition(candidate.id, ["processing"], "queued", {
            nextAttemptAt: null,
            lastError: fresh.value.lastError ?? "resumed: its worker stopped while processing"
          }, yield* currentDate).pipe(Effect.option)
          if (Option.isSome(moved)) rescued++
        }
        if (rescued > 0) yield* Effect.logWarning(`resumed ${rescued} order(s) of stopped workers`)
        return rescued
      }).pipe(Effect.withSpan("OrderLease.rescueStale"))

      return OrderLease.of({ hold, requeue, setReference, rescueStale })
    })
  )
}
