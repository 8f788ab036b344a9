/**
 * The order's moves that post to the ledger or announce in the outbox, each in one transaction with its
 * state change: charged again (`retry`, `markDone` from `failed`), `complete`, failed with its charge
 * refunded (`fail`, `refund`, `defer` past its attempts) or deferred.
 */
import { Effect, Option } from "effect"
import type { OrderId } from "../ids.ts"
import { Ledger } from "../ports/Ledger.ts"
import { Orders } from "../ports/Orders.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Transactor } from "../ports/Transactor.ts"
import type { Viewer } from "../sessions/Session.ts"
import { currentDate } from "../Time.ts"
import type { Order, OrderStatus } from "./Order.ts"
import { orderCharge, orderRefund } from "./OrderCharges.ts"
import type { OrderNotFound } from "./OrderErrors.ts"
import { type Completion, completionPatch } from "./FulfilmentOutcome.ts"
import { afterTransientFailure } from "./NextStep.ts"
import { failureCode, operatorRefund } from "./OrderFailure.ts"
import { OrderWorkSettings } from "./OrderWorkSettings.ts"

/**
 * Builds `OrderService`'s `retry`, `markDone`, `complete`, `fail`, `refund` and `defer`, over the
 * service's own `find` (an operator's view of the order).
 */
export const makeOrderSettlement = (find: (viewer: Viewer, orderId: OrderId) => Effect.Effect<Order, OrderNotFound>) =>
  Effect.gen(function* () {
    const orders = yield* Orders
    const ledger = yield* Ledger
    const outbox = yield* Outbox
    const tx = yield* Transactor
    // The worker's retry timing (ORDER_RETRY_DELAY, ORDER_MAX_ATTEMPTS); only `defer` reads it.
    const settings = yield* OrderWorkSettings

    const charge = (order: Order, seq: number) => ledger.post(orderCharge(order, seq))

    const retry = Effect.fn("OrderService.retry")(function* (orderId: OrderId) {
      const now = yield* currentDate
      return yield* tx.withTransaction(
        Effect.gen(function* () {
          const current = yield* find({ kind: "operator" }, orderId)
          const seq = current.chargeSeq + 1
          const order = yield* orders.transition(
            orderId,
            ["failed"],
            "queued",
            {
              chargeSeq: seq,
              attempts: 0,
              nextAttemptAt: null,
              lastError: null,
              unknownSince: null,
              unknownAttempts: 0
            },
            now
          )
          yield* charge(order, seq)
          return order
        })
      )
    })

    const announceCompleted = (order: Order, now: Date) =>
      outbox.add(
        {
          kind: "order.completed",
          userId: order.userId,
          payload: {
            orderId: order.id,
            kind: order.item.kind,
            recipient: order.recipient,
            txId: order.txId,
            delivery: order.delivery,
            fragmentRef: order.fragmentRef
          }
        },
        now
      )

    const markDone = Effect.fn("OrderService.markDone")(function* (orderId: OrderId, txId?: string) {
      const now = yield* currentDate
      // An operator's word on the delivery: confirmed.
      const patch = {
        txId: txId?.trim() || null,
        completedAt: now,
        nextAttemptAt: null,
        delivery: "confirmed" as const
      }
      return yield* tx.withTransaction(
        Effect.gen(function* () {
          const current = yield* find({ kind: "operator" }, orderId)
          let order: Order
          if (current.status === "failed") {
            const seq = current.chargeSeq + 1
            order = yield* orders.transition(orderId, ["failed"], "completed", { ...patch, chargeSeq: seq }, now)
            yield* charge(order, seq)
          } else {
            order = yield* orders.transition(
              orderId,
              ["queued", "processing", "needs_attention"],
              "completed",
              patch,
              now
            )
          }
          yield* announceCompleted(order, now)
          return order
        })
      )
    })

    const complete = Effect.fn("OrderService.complete")(function* (orderId: OrderId, result: Completion) {
      const now = yield* currentDate
      return yield* tx.withTransaction(
        Effect.gen(function* () {
          const before = result.unconfirmed === undefined ? null : Option.getOrNull(yield* orders.find(orderId))
          const order = yield* orders.transition(
            orderId,
            ["processing"],
            "completed",
            {
              ...completionPatch(result, before?.evidence ?? null),
              completedAt: now,
              nextAttemptAt: null
            },
            now
          )
          yield* announceCompleted(order, now)
          return order
        })
      )
    })

    // Inside a transaction: -> failed and refund the charge the order holds.
    const failAndRefund = (
      orderId: OrderId,
      error: string,
      patch: { readonly attempts?: number },
      now: Date,
      from: ReadonlyArray<OrderStatus> = ["queued", "processing"]
    ) =>
      Effect.gen(function* () {
        const order = yield* orders.transition(
          orderId,
          from,
          "failed",
          {
            ...patch,
            lastError: error,
            nextAttemptAt: null
          },
          now
        )
        yield* ledger.post(orderRefund(order, error)).pipe(Effect.catchTag("InsufficientBalance", Effect.die)) // a credit cannot overdraw
        yield* outbox.add(
          {
            kind: "order.failed",
            userId: order.userId,
            payload: {
              orderId: order.id,
              kind: order.item.kind,
              recipient: order.recipient,
              refundedUzs: order.priceUzs,
              // The stable code integrators switch on (webhook `error_code`); the text stays the operators'.
              errorCode: failureCode(error)
            }
          },
          now
        )
        return order
      })

    const fail = Effect.fn("OrderService.fail")(function* (orderId: OrderId, error: string) {
      const now = yield* currentDate
      return yield* tx.withTransaction(failAndRefund(orderId, error, {}, now))
    })

    const refund = Effect.fn("OrderService.refund")(function* (orderId: OrderId, note: string) {
      const now = yield* currentDate
      return yield* tx.withTransaction(failAndRefund(orderId, operatorRefund(note), {}, now, ["needs_attention"]))
    })

    const defer = Effect.fn("OrderService.defer")(function* (orderId: OrderId, error: string) {
      const now = yield* currentDate
      return yield* tx.withTransaction(
        Effect.gen(function* () {
          const current = yield* find({ kind: "operator" }, orderId)
          const step = afterTransientFailure(current, error, settings, now)
          if (step._tag === "Refund")
            return yield* failAndRefund(
              orderId,
              step.error,
              step.attempts === undefined ? {} : { attempts: step.attempts },
              now
            )
          return yield* orders.transition(
            orderId,
            ["processing"],
            "queued",
            { attempts: step.attempts, lastError: step.error, nextAttemptAt: step.at },
            now
          )
        })
      )
    })

    return { retry, markDone, complete, fail, refund, defer }
  })
