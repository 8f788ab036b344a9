import { Context, type Effect, type Option } from "effect"
import type { OrderId, UserId } from "../ids.ts"
import type { Uzs } from "../money/Uzs.ts"
import type { Order, OrderDelivery, OrderEvidence, OrderItem, OrderKind, OrderStatus } from "../orders/Order.ts"
import type { OrderNotFound, OrderTransitionInvalid } from "../orders/OrderErrors.ts"
import type { InsufficientBalance } from "../ledger/LedgerErrors.ts"
import type { PricesChanged } from "../pricing/Prices.ts"
import type { ChargeOfNew } from "../ledger/BalanceMovement.ts"
import type { Page, PageRequest } from "../Page.ts"

export interface NewOrder {
  readonly userId: UserId
  readonly recipient: string
  readonly item: OrderItem
  readonly priceUzs: Uzs
}

/** An order placed with its charge, and the account's balance right after that charge. */
export interface ChargedOrder {
  readonly order: Order
  readonly balanceAfter: Uzs
}

/** Fields a transition may set; absent fields keep their value. */
export interface OrderPatch {
  readonly chargeSeq?: number
  readonly attempts?: number
  readonly lastError?: string | null
  readonly nextAttemptAt?: Date | null
  readonly txId?: string | null
  readonly fragmentRef?: string | null
  readonly giftRef?: string | null
  readonly completedAt?: Date | null
  readonly unknownSince?: Date | null
  readonly unknownAttempts?: number
  readonly evidence?: OrderEvidence | null
  readonly delivery?: OrderDelivery | null
}

export interface OrderFilter extends PageRequest {
  readonly status?: ReadonlyArray<OrderStatus>
  readonly kind?: OrderKind
  readonly userId?: UserId
  /** Cursor: only orders older than this id (the last one of the previous page). */
  readonly beforeId?: number
  /** Only orders created strictly after this instant. */
  readonly createdAfter?: Date
}

/**
 * Storage of account-surface orders. The ledger charge is not this port's business: the use case
 * posts it in the same transaction.
 */
export class Orders extends Context.Service<
  Orders,
  {
    /** Inserts an order in status `queued`, chargeSeq 0, attempts 0. */
    readonly insert: (order: NewOrder, now: Date) => Effect.Effect<Order>
    /**
     * Inserts the order as `insert` does AND applies `charge` (core's `newOrderCharge`) as `Ledger.post`
     * would, its cause id the new order's id put into `charge.causeId`, as ONE atomic write: both or
     * neither, and only while the charge's conditions hold: `charge.pricedAt` is the current price list
     * (`Pricing.get`'s, `DEFAULT_PRICES` when none was set) and the balance after stays at least
     * `charge.minBalanceAfter`. Otherwise it fails with core's `refusalOf` (`PricesChanged` before
     * `InsufficientBalance`) and writes nothing. PG: one statement, so the account row is locked only
     * while it runs, not across a COMMIT round trip. Answers the balance right after this charge (its
     * ledger entry's `balanceAfter`), so no caller reads it again.
     */
    readonly insertCharged: (
      order: NewOrder,
      charge: ChargeOfNew,
      now: Date
    ) => Effect.Effect<ChargedOrder, InsufficientBalance | PricesChanged>
    readonly find: (id: OrderId) => Effect.Effect<Option.Option<Order>>
    /** Newest first, with the total count for the same filter. */
    readonly list: (filter: OrderFilter) => Effect.Effect<Page<Order>>
    /**
     * Conditional state change: moves the order to `to` and applies `patch` only if its current
     * status is one of `from`. Fails `OrderNotFound` if absent, `OrderTransitionInvalid` with the
     * current status otherwise; writes nothing on failure. `to` may equal the current status (a
     * transient failure keeps `queued`).
     */
    readonly transition: (
      id: OrderId,
      from: ReadonlyArray<OrderStatus>,
      to: OrderStatus,
      patch: OrderPatch,
      now: Date
    ) => Effect.Effect<Order, OrderNotFound | OrderTransitionInvalid>
    /**
     * Keeps the leases of these orders: `updatedAt = now` for those still `processing`, the others left
     * alone (one statement for every order a worker carries).
     */
    readonly touch: (ids: ReadonlyArray<OrderId>, now: Date) => Effect.Effect<void>
    /**
     * Takes one `queued` order whose `nextAttemptAt` is null or <= now (oldest first), marks it
     * `processing` and returns it. Concurrent callers never get the same order (PG: `FOR UPDATE
     * SKIP LOCKED`). None when nothing is due.
     */
    readonly claimNext: (now: Date) => Effect.Effect<Option.Option<Order>>
    /**
     * As `claimNext`, up to `limit` orders in one step (oldest first): a worker with many free slots
     * takes what is due at once instead of asking once per order.
     */
    readonly claimDue: (now: Date, limit: number) => Effect.Effect<ReadonlyArray<Order>>
  }
>()("core/ports/Orders") {}
