import { Effect, Layer, Option, Result } from "effect"
import type { OrderId } from "../ids.ts"
import { type ChargeOfNew, causeIdAround, settleCharge } from "../ledger/BalanceMovement.ts"
import type { InsufficientBalance } from "../ledger/LedgerErrors.ts"
import type { Order, OrderStatus } from "../orders/Order.ts"
import { OrderNotFound, OrderTransitionInvalid } from "../orders/OrderErrors.ts"
import type { PricesChanged } from "../pricing/Prices.ts"
import { type ChargedOrder, type NewOrder, type OrderFilter, type OrderPatch, Orders } from "../ports/Orders.ts"
import { MemoryDb, type MemoryState, nextId } from "./MemoryDb.ts"
import { accountBalance, recordMovement } from "./MemoryLedger.ts"
import { newestFirst, paginate } from "./paginate.ts"

/** `Orders` over the in-memory database. */
export const MemoryOrders = Layer.effect(
  Orders,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    // Due queued orders, oldest first, marked processing: the first `limit` of them.
    const claim = (s: MemoryState, now: Date, limit: number): ReadonlyArray<Order> =>
      [...s.orders.values()]
        .filter(
          (o) => o.status === "queued" && (o.nextAttemptAt === null || o.nextAttemptAt.getTime() <= now.getTime())
        )
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
        .slice(0, Math.max(0, limit))
        .map((due) => {
          const claimed: Order = { ...due, status: "processing", updatedAt: now }
          s.orders.set(due.id, claimed)
          return claimed
        })
    const make = (s: MemoryState, order: NewOrder, now: Date): Order => ({
      id: nextId(s, "orders") as OrderId,
      ...order,
      status: "queued",
      chargeSeq: 0,
      attempts: 0,
      lastError: null,
      nextAttemptAt: null,
      txId: null,
      fragmentRef: null,
      giftRef: null,
      unknownSince: null,
      unknownAttempts: 0,
      evidence: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      delivery: null
    })
    return Orders.of({
      insertCharged: (order: NewOrder, charge: ChargeOfNew, now: Date) =>
        db.run<ChargedOrder, InsufficientBalance | PricesChanged>((s) =>
          Result.map(settleCharge(charge, accountBalance(s, order.userId), s.prices), (after) => {
            const created = make(s, order, now)
            s.orders.set(created.id, created)
            recordMovement(s, { ...charge, causeId: causeIdAround(charge.causeId, created.id) }, after, now)
            return { order: created, balanceAfter: after }
          })
        ),
      insert: (order: NewOrder, now: Date) =>
        db.read((s) => {
          const created = make(s, order, now)
          s.orders.set(created.id, created)
          return created
        }),
      find: (id) => db.read((s) => Option.fromNullishOr(s.orders.get(id))),
      list: (filter: OrderFilter) =>
        db.read((s) =>
          paginate(
            [...s.orders.values()]
              .filter((o) => filter.userId === undefined || o.userId === filter.userId)
              .filter((o) => filter.kind === undefined || o.item.kind === filter.kind)
              .filter((o) => filter.status === undefined || filter.status.includes(o.status))
              .filter((o) => filter.beforeId === undefined || o.id < filter.beforeId)
              .filter((o) => filter.createdAfter === undefined || o.createdAt > filter.createdAfter)
              .sort(newestFirst),
            filter
          )
        ),
      transition: (id: OrderId, from: ReadonlyArray<OrderStatus>, to: OrderStatus, patch: OrderPatch, now: Date) =>
        db.run<Order, OrderNotFound | OrderTransitionInvalid>((s) => {
          const current = s.orders.get(id)
          if (current === undefined) return Result.fail(new OrderNotFound({ orderId: id }))
          if (!from.includes(current.status)) {
            return Result.fail(new OrderTransitionInvalid({ orderId: id, from: current.status, to }))
          }
          const next: Order = { ...current, ...patch, status: to, updatedAt: now }
          s.orders.set(id, next)
          return Result.succeed(next)
        }),
      touch: (ids: ReadonlyArray<OrderId>, now: Date) =>
        db.read((s) => {
          for (const id of ids) {
            const current = s.orders.get(id)
            if (current?.status === "processing") s.orders.set(id, { ...current, updatedAt: now })
          }
        }),
      claimNext: (now: Date) => db.read((s) => Option.fromNullishOr(claim(s, now, 1)[0])),
      claimDue: (now: Date, limit: number) => db.read((s) => claim(s, now, limit))
    })
  })
)
