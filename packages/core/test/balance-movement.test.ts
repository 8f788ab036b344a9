import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { tierCharge } from "../src/accounts/Tiers.ts"
import type { OrderId, TopupId, UserId } from "../src/ids.ts"
import { adjustmentMovement } from "../src/ledger/Balances.ts"
import {
  balanceMovement,
  causeIdAround,
  NO_OVERDRAFT,
  refusalOf,
  settle,
  settleCharge
} from "../src/ledger/BalanceMovement.ts"
import type { SignedUzs, Uzs } from "../src/money/Uzs.ts"
import { chargeCauseId, refundCauseId } from "../src/orders/Order.ts"
import { newOrderCharge, orderCharge, orderRefund } from "../src/orders/OrderCharges.ts"
import { DEFAULT_PRICES } from "../src/pricing/Prices.ts"
import { topupCredit } from "../src/topups/confirmTopup.ts"

const user = 7 as UserId
const order = { id: 42 as OrderId, userId: user, priceUzs: 23_000 as Uzs, chargeSeq: 0 }
const raised = { ...DEFAULT_PRICES, starPriceUzs: 250 as Uzs }

describe("BalanceMovement: core decides every movement", () => {
  it("a new order's charge: its price debited, cause order:<id> around the id the store assigns, at the quoted list", () => {
    const charge = newOrderCharge(order, DEFAULT_PRICES)
    assert.deepStrictEqual(
      { amount: charge.amount, cause: charge.cause, floor: charge.minBalanceAfter, pricedAt: charge.pricedAt },
      { amount: -23_000, cause: "order", floor: NO_OVERDRAFT, pricedAt: DEFAULT_PRICES }
    )
    assert.strictEqual(causeIdAround(charge.causeId, order.id), chargeCauseId(order, 0))
    assert.strictEqual(causeIdAround(charge.causeId, order.id), "42")
  })

  it("re-charges and refunds name their sequence; a refund credits the price and cuts its note", () => {
    assert.strictEqual(orderCharge(order, 2).causeId, "42:retry:2")
    assert.strictEqual(orderCharge(order, 2).amount, -23_000)
    const refund = orderRefund({ ...order, chargeSeq: 3 }, "x".repeat(300))
    assert.deepStrictEqual(
      { amount: refund.amount, cause: refund.cause, causeId: refund.causeId, note: refund.note?.length },
      { amount: 23_000, cause: "refund", causeId: refundCauseId(order, 3), note: 200 }
    )
    assert.strictEqual(refund.causeId, "42:3")
  })

  it("top-up credits, tier charges and adjustments carry their cause ids and notes", () => {
    const credit = topupCredit({ id: 9 as TopupId, userId: user }, 5_000 as Uzs, "payment")
    assert.deepStrictEqual(
      [credit.amount, credit.cause, credit.causeId, credit.note],
      [5_000, "topup", "9", "card payment"]
    )
    assert.strictEqual(
      topupCredit({ id: 9 as TopupId, userId: user }, 5_000 as Uzs, "operator").note,
      "confirmed by operator"
    )
    const tier = tierCharge(user, 1)
    assert.deepStrictEqual([tier.amount, tier.cause, tier.causeId], [-50_000, "tier", "7:1"])
    const adjusted = adjustmentMovement({ userId: user, amount: -300, reason: " typo ", key: " k1 " })
    assert.isFalse("_tag" in adjusted)
    if (!("_tag" in adjusted)) {
      assert.deepStrictEqual([adjusted.amount, adjusted.causeId, adjusted.note], [-300, "k1", "typo"])
      assert.strictEqual(adjusted.minBalanceAfter, NO_OVERDRAFT)
    }
    for (const bad of [
      { amount: 0, reason: "r", key: "k" },
      { amount: 1.5, reason: "r", key: "k" },
      { amount: 1, reason: " ", key: "k" },
      { amount: 1, reason: "r", key: "k".repeat(201) }
    ]) {
      assert.strictEqual((adjustmentMovement({ userId: user, ...bad }) as { _tag?: string })._tag, "AdjustmentInvalid")
    }
  })

  it("settle: the balance after, or InsufficientBalance naming what is required; the floor is the movement's", () => {
    const debit = balanceMovement({ userId: user, amount: -100 as SignedUzs, cause: "adjust", causeId: "d" })
    assert.deepStrictEqual(settle(debit, 100 as Uzs), Result.succeed(0 as Uzs))
    const refused = settle(debit, 99 as Uzs)
    assert.isTrue(Result.isFailure(refused) && refused.failure.required === 100 && refused.failure.balance === 99)
    const floored = { ...debit, minBalanceAfter: 50 as Uzs }
    assert.isTrue(Result.isFailure(settle(floored, 149 as Uzs)))
    assert.deepStrictEqual(settle(floored, 150 as Uzs), Result.succeed(50 as Uzs))
    const credit = balanceMovement({ userId: user, amount: 5 as SignedUzs, cause: "adjust", causeId: "c" })
    assert.deepStrictEqual(settle(credit, 0 as Uzs), Result.succeed(5 as Uzs))
  })

  it("a charge rests on its price list first, then on the balance", () => {
    const charge = newOrderCharge(order, DEFAULT_PRICES)
    assert.deepStrictEqual(settleCharge(charge, 23_000 as Uzs, DEFAULT_PRICES), Result.succeed(0 as Uzs))
    const stale = settleCharge(charge, 1 as Uzs, raised)
    assert.isTrue(Result.isFailure(stale) && stale.failure._tag === "PricesChanged")
    const short = settleCharge(charge, 22_999 as Uzs, DEFAULT_PRICES)
    assert.isTrue(Result.isFailure(short) && short.failure._tag === "InsufficientBalance")
    assert.strictEqual(refusalOf(charge, { balance: 0 as Uzs, pricesCurrent: false })?._tag, "PricesChanged")
    assert.strictEqual(refusalOf(charge, { balance: 0 as Uzs, pricesCurrent: true })?._tag, "InsufficientBalance")
    assert.isUndefined(refusalOf(charge, { balance: 23_000 as Uzs, pricesCurrent: true }))
  })
})
