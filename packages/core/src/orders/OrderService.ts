import { Context, Effect, Layer, Option } from "effect"
import type { OrderId, UserId } from "../ids.ts"
import type { InsufficientBalance } from "../ledger/LedgerErrors.ts"
import type { Uzs } from "../money/Uzs.ts"
import type { Page, PageRequest } from "../Page.ts"
import { Ledger } from "../ports/Ledger.ts"
import { type ChargedOrder, type OrderFilter, Orders } from "../ports/Orders.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Pricing } from "../ports/Pricing.ts"
import type { Prices } from "../pricing/Prices.ts"
import { Transactor } from "../ports/Transactor.ts"
import { canSee, type Viewer } from "../sessions/Session.ts"
import { currentDate } from "../Time.ts"
import type { Order, OrderItem, OrderStatus } from "./Order.ts"
import { newOrderCharge, orderCharge, orderRefund } from "./OrderCharges.ts"
import { OrderNotFound, type OrderRequestInvalid, type OrderTransitionInvalid } from "./OrderErrors.ts"
import { type Completion, completionPatch } from "./FulfilmentOutcome.ts"
import { afterTransientFailure } from "./NextStep.ts"
import { failureCode, operatorRefund } from "./OrderFailure.ts"
import { type OrderRequest, priceOf, validateOrder } from "./OrderRules.ts"
import { OrderWorkSettings } from "./OrderWorkSettings.ts"

type Transition = OrderNotFound | OrderTransitionInvalid

export interface Quote {
  readonly recipient: string
  readonly item: OrderItem
  readonly priceUzs: Uzs
}

/**
 * Orders of the account surface. An order holds its charge while queued, processing or completed;
 * a failed order has had its current charge refunded exactly once. Every charge and refund is a
 * ledger entry whose cause id comes from the order id and its `chargeSeq` (see `Order.ts`), in the
 * same transaction as the state change.
 */
export class OrderService extends Context.Service<
  OrderService,
  {
    /** The price of a request at the current prices. */
    readonly quote: (request: OrderRequest) => Effect.Effect<Quote, OrderRequestInvalid>
    /** Debits the price (cause `order:<id>`) and queues the order, in one transaction. */
    readonly create: (
      userId: UserId,
      request: OrderRequest
    ) => Effect.Effect<Order, OrderRequestInvalid | InsufficientBalance>
    /** `create`, answering also the balance right after this order's charge (no second read). */
    readonly place: (
      userId: UserId,
      request: OrderRequest
    ) => Effect.Effect<ChargedOrder, OrderRequestInvalid | InsufficientBalance>
    readonly find: (viewer: Viewer, orderId: OrderId) => Effect.Effect<Order, OrderNotFound>
    /** The owner's orders, newest first, with the total (optionally filtered, after a cursor). */
    readonly listOwn: (userId: UserId, filter: Omit<OrderFilter, "userId">) => Effect.Effect<Page<Order>>
    /** Operators: all orders, filtered. */
    readonly list: (filter: OrderFilter) => Effect.Effect<Page<Order>>
    /** Operator: `failed` -> `queued`, charging again (cause `order:<id>:retry:<n>`). */
    readonly retry: (orderId: OrderId) => Effect.Effect<Order, Transition | InsufficientBalance>
    /**
     * Operator: `queued` | `processing` | `failed` | `needs_attention` -> `completed` with the given tx
     * id or reference. From `failed` the refunded charge is taken again (the goods were delivered after all).
     */
    readonly markDone: (orderId: OrderId, txId?: string) => Effect.Effect<Order, Transition | InsufficientBalance>
    /**
     * Operator: `needs_attention` -> `queued`, due now, with a fresh run of unknown checks (its evidence
     * is kept): the worker looks at the same payment again, never pays a second time.
     */
    readonly recheck: (orderId: OrderId) => Effect.Effect<Order, Transition>
    /**
     * Operator: `needs_attention` -> `failed`, refunding the charge it holds (one ledger entry, cause
     * `refund:<id>[:n]`); a second refund fails `OrderTransitionInvalid` (from `failed`).
     */
    readonly refund: (orderId: OrderId, note: string) => Effect.Effect<Order, Transition>
    /** Worker: takes the next due `queued` order, now `processing`. */
    readonly claimNext: Effect.Effect<Option.Option<Order>>
    /** Worker: takes up to `limit` due `queued` orders at once (oldest first), now `processing`. */
    readonly claimDue: (limit: number) => Effect.Effect<ReadonlyArray<Order>>
    /** Worker: remembers the marketplace reference (`Ref#`) before paying, for reconciliation. */
    readonly setReference: (orderId: OrderId, fragmentRef: string) => Effect.Effect<Order, Transition>
    /**
     * Worker: `processing` -> `completed`, delivery `confirmed`, or `paid_unconfirmed` with the payment
     * evidence kept when the completion carries it (`unconfirmed`).
     */
    readonly complete: (orderId: OrderId, result: Completion) => Effect.Effect<Order, Transition>
    /** Worker: `queued` | `processing` -> `failed` with the current charge refunded (cause `refund:<id>[:n]`). */
    readonly fail: (orderId: OrderId, error: string) => Effect.Effect<Order, Transition>
    /**
     * Worker, only when nothing was paid: `processing` -> `queued` after a backoff, attempts + 1.
     * After `maxAttempts` (`OrderWorkSettings`) attempts the order fails and is refunded instead.
     */
    readonly defer: (orderId: OrderId, error: string) => Effect.Effect<Order, Transition>
  }
>()("core/orders/OrderService") {
  static readonly layer = Layer.effect(
    OrderService,
    Effect.gen(function* () {
      const orders = yield* Orders
      const ledger = yield* Ledger
      const pricing = yield* Pricing
      const outbox = yield* Outbox
      const tx = yield* Transactor
      // The worker's retry timing (ORDER_RETRY_DELAY, ORDER_MAX_ATTEMPTS); only `defer` reads it.
      const settings = yield* OrderWorkSettings

      const quote = Effect.fn("OrderService.quote")(function* (request: OrderRequest) {
        const checked = validateOrder(request)
        if ("_tag" in checked) return yield* checked
        const prices = yield* pricing.get
        return { ...checked, priceUzs: priceOf(checked.item, prices) }
      })

      const charge = (order: Order, seq: number) => ledger.post(orderCharge(order, seq))

      // The quote only reads; the order and its charge are one atomic write of the store
      // (`insertCharged`), so no transaction holds the account's lock across a COMMIT round trip.
      // Inside a caller's transaction (an Idempotency-Key's) it joins that one as before.
      // The price list the latest order was charged at. An order is priced at it without reading the
      // prices again: `insertCharged` charges only while it is still the current list (checked in its
      // one write), and when an operator changed it the order is priced again at the list read afresh.
      // So every order is charged at the prices current when it is charged, as when they were read first.
      let latestPrices: Prices | undefined
      const freshPrices = Effect.tap(pricing.get, (prices) => Effect.sync(() => (latestPrices = prices)))

      const place = Effect.fn("OrderService.place")(function* (userId: UserId, request: OrderRequest) {
        const now = yield* currentDate
        const checked = validateOrder(request)
        if ("_tag" in checked) return yield* checked
        const { item, recipient } = checked
        // Changed since: priced again at the list read now (a change in between is caught the same way).
        const chargeAt = (prices: Prices, retries: number): Effect.Effect<ChargedOrder, InsufficientBalance> => {
          const order = { userId, recipient, item, priceUzs: priceOf(item, prices) }
          return orders
            .insertCharged(order, newOrderCharge(order, prices), now)
            .pipe(
              Effect.catchTag("PricesChanged", () =>
                retries === 0
                  ? Effect.die(new Error("the prices changed at every attempt to charge an order"))
                  : Effect.flatMap(freshPrices, (fresh) => chargeAt(fresh, retries - 1))
              )
            )
        }
        return yield* chargeAt(latestPrices ?? (yield* freshPrices), 3)
      })

      const create = (userId: UserId, request: OrderRequest) =>
        Effect.map(place(userId, request), (placed) => placed.order)

      const find = Effect.fn("OrderService.find")(function* (viewer: Viewer, orderId: OrderId) {
        const found = yield* orders.find(orderId)
        if (Option.isNone(found) || !canSee(viewer, found.value.userId)) return yield* new OrderNotFound({ orderId })
        return found.value
      })

      const listOwn = Effect.fn("OrderService.listOwn")(function* (
        userId: UserId,
        filter: Omit<OrderFilter, "userId">
      ) {
        return yield* orders.list({ ...filter, userId })
      })

      const list = Effect.fn("OrderService.list")(function* (filter: OrderFilter) {
        return yield* orders.list(filter)
      })

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

      const claimNext = Effect.gen(function* () {
        return yield* orders.claimNext(yield* currentDate)
      }).pipe(Effect.withSpan("OrderService.claimNext"))

      const claimDue = Effect.fn("OrderService.claimDue")(function* (limit: number) {
        return yield* orders.claimDue(yield* currentDate, limit)
      })

      const setReference = Effect.fn("OrderService.setReference")(function* (orderId: OrderId, fragmentRef: string) {
        return yield* orders.transition(orderId, ["processing"], "processing", { fragmentRef }, yield* currentDate)
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

      const recheck = Effect.fn("OrderService.recheck")(function* (orderId: OrderId) {
        const now = yield* currentDate
        return yield* orders.transition(
          orderId,
          ["needs_attention"],
          "queued",
          {
            nextAttemptAt: null,
            unknownSince: null,
            unknownAttempts: 0
          },
          now
        )
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

      return OrderService.of({
        quote,
        create,
        place,
        find,
        listOwn,
        list,
        retry,
        markDone,
        recheck,
        refund,
        claimNext,
        claimDue,
        setReference,
        complete,
        fail,
        defer
      })
    })
  )
}
