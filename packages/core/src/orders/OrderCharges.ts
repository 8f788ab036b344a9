import type { UserId } from "../ids.ts"
import { type BalanceMovement, balanceMovement, type ChargeOfNew, NO_OVERDRAFT } from "../ledger/BalanceMovement.ts"
import { credit, debit, type Uzs } from "../money/Uzs.ts"
import type { Prices } from "../pricing/Prices.ts"
import { chargeCausePattern, chargeCauseId, type Order, refundCauseId } from "./Order.ts"

/** How long a refund's note may be (the failure that caused it, cut). */
const REFUND_NOTE_MAX = 200

/**
 * The first charge of an order the same write creates: its price debited, cause `order:<id>`, resting on
 * the balance covering it and on `pricedAt` still being the current price list.
 */
export const newOrderCharge = (
  order: { readonly userId: UserId; readonly priceUzs: Uzs },
  pricedAt: Prices
): ChargeOfNew => ({
  userId: order.userId,
  amount: debit(order.priceUzs),
  cause: "order",
  causeId: chargeCausePattern(0),
  minBalanceAfter: NO_OVERDRAFT,
  pricedAt
})

/** Charge `seq` of a stored order (an operator's retry or mark-done of a failed one): `order:<id>:retry:<n>`. */
export const orderCharge = (order: Pick<Order, "id" | "userId" | "priceUzs">, seq: number): BalanceMovement =>
  balanceMovement({
    userId: order.userId,
    amount: debit(order.priceUzs),
    cause: "order",
    causeId: chargeCauseId(order, seq)
  })

/** The refund of the charge the order holds (`refund:<id>[:n]`), noting why it failed. */
export const orderRefund = (
  order: Pick<Order, "id" | "userId" | "priceUzs" | "chargeSeq">,
  why: string
): BalanceMovement =>
  balanceMovement({
    userId: order.userId,
    amount: credit(order.priceUzs),
    cause: "refund",
    causeId: refundCauseId(order, order.chargeSeq),
    note: why.slice(0, REFUND_NOTE_MAX)
  })
