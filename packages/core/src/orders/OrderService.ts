import { Context, Effect, Layer, Option } from "effect"
import type { OrderId, UserId } from "../ids.ts"
import type { InsufficientBalance } from "../ledger/LedgerErrors.ts"
import type { Uzs } from "../money/Uzs.ts"
import type { Page } from "../Page.ts"
import { type ChargedOrder, type OrderFilter, Orders } from "../ports/Orders.ts"
import { canSee, type Viewer } from "../sessions/Session.ts"
import { currentDate } from "../Time.ts"
import type { Order, OrderItem } from "./Order.ts"
import { OrderNotFound, type OrderRequestInvalid, type OrderTransitionInvalid } from "./OrderErrors.ts"
import type { Completion } from "./FulfilmentOutcome.ts"
import { makeOrderPlacing } from "./OrderPlacing.ts"
import type { OrderRequest } from "./OrderRules.ts"
import { makeOrderSettlement } from "./OrderSettlement.ts"

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

      const claimNext = Effect.gen(function* () {
        return yield* orders.claimNext(yield* currentDate)
      }).pipe(Effect.withSpan("OrderService.claimNext"))

      const claimDue = Effect.fn("OrderService.claimDue")(function* (limit: number) {
        return yield* orders.claimDue(yield* currentDate, limit)
      })

      const setReference = Effect.fn("OrderService.setReference")(function* (orderId: OrderId, fragmentRef: string) {
        return yield* orders.transition(orderId, ["processing"], "processing", { fragmentRef }, yield* currentDate)
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

      const { quote, place, create } = yield* makeOrderPlacing
      const { retry, markDone, complete, fail, refund, defer } = yield* makeOrderSettlement(find)

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
