import { assert, describe, it } from "@effect/vitest"
import { DirectPurchaseError } from "@resale/core/direct/DirectPurchaseError.ts"
import type { OutboxEvent } from "@resale/core/outbox/OutboxEvent.ts"
import { MarketplaceErrorReason } from "@resale/core/ports/Marketplace.ts"
import { giftMarker, markerTime } from "@resale/core/orders/GiftFulfilment.ts"
import { outcomeOf } from "@resale/core/direct/WalletPurchases.ts"
import { Option } from "effect"
import { outcomeOfPurchase } from "../src/fulfilment/MarketplaceFulfilment.ts"
import { renderEvent } from "@resale/core/outbox/Notices.ts"

const direct = (
  reason: DirectPurchaseError["reason"],
  outcome?: "NotPaid" | "Unknown" | "Paid",
  marketplaceReason?: MarketplaceErrorReason
) =>
  outcomeOfPurchase(outcomeOf(
    new DirectPurchaseError({
      reason,
      message: "m",
      ...(outcome === undefined ? {} : { outcome }),
      ...(marketplaceReason === undefined ? {} : { marketplaceReason })
    }),
    Option.none()
  ))

describe("what a hot-wallet purchase failure means for an account order (core outcome, then the order's)", () => {
  it("money that may have left is never a refund: Unknown, whatever the reason", () => {
    for (const reason of ["MarketplaceTimeout", "TransferFailed", "MarketplaceRejected"] as const) {
      assert.strictEqual(direct(reason, "Paid")._tag, "Unknown")
      assert.strictEqual(direct(reason, "Unknown")._tag, "Unknown")
    }
    // A finished record with another request: paid once already, an operator decides.
    assert.strictEqual(direct("OrderIdReused")._tag, "Unknown")
  })

  it("nothing paid: refusals fail the order, the hot wallet's and the network's troubles retry", () => {
    assert.deepStrictEqual(direct("MarketplaceRejected", "NotPaid"), { _tag: "NotDelivered", transient: false, error: "MarketplaceRejected: m" })
    assert.deepStrictEqual(direct("InvalidRequest"), { _tag: "NotDelivered", transient: false, error: "InvalidRequest: m" })
    for (const reason of ["InsufficientFunds", "WalletInvalid", "MarketplaceTimeout", "TransferFailed"] as const) {
      const outcome = direct(reason, "NotPaid")
      assert.isTrue(outcome._tag === "NotDelivered" && outcome.transient, reason)
    }
    assert.strictEqual(direct("OrderPending")._tag, "Busy")
  })

  it("the marketplace's own reason decides: an outage retries, a refusal fails and refunds", () => {
    // A Fragment 5xx during the quote answers MARKETPLACE_ERROR to a direct caller, but an order waits and retries.
    assert.deepStrictEqual(direct("MarketplaceRejected", "NotPaid", "Unavailable"), {
      _tag: "NotDelivered",
      transient: true,
      error: "MarketplaceRejected (Unavailable): m"
    })
    assert.deepStrictEqual(direct("MarketplaceTimeout", "NotPaid", "Timeout"), {
      _tag: "NotDelivered",
      transient: true,
      error: "MarketplaceTimeout (Timeout): m"
    })
    assert.deepStrictEqual(direct("MarketplaceRejected", "NotPaid", "Blocked"), {
      _tag: "NotDelivered",
      transient: true,
      error: "MarketplaceRejected (Blocked): m"
    })
    // every Fragment session busy buying for other orders: back soon, no attempt counted
    assert.strictEqual(direct("ServiceBusy", "NotPaid", "SessionBusy")._tag, "Busy")
    const permanent = MarketplaceErrorReason.literals.filter((r) => r !== "Unavailable" && r !== "Timeout" && r !== "Blocked" && r !== "SessionBusy")
    assert.sameMembers(permanent, ["Rejected", "AlreadySubscribed", "RecipientNotFound", "NeedVerify", "SessionExpired"])
    for (const reason of permanent) {
      assert.deepStrictEqual(direct("MarketplaceRejected", "NotPaid", reason), {
        _tag: "NotDelivered",
        transient: false,
        error: `MarketplaceRejected (${reason}): m`
      })
    }
    // After payment the reason changes nothing: money may have left, so it is never a refund.
    assert.strictEqual(direct("MarketplaceTimeout", "Paid", "Unavailable")._tag, "Unknown")
    assert.strictEqual(direct("MarketplaceRejected", "Paid", "Rejected")._tag, "Unknown")
  })
})

describe("gift send markers", () => {
  it("round-trip the instant; anything else is no marker", () => {
    const at = new Date("2026-05-01T10:20:30.456Z")
    assert.strictEqual(markerTime(giftMarker(at))?.toISOString(), at.toISOString())
    assert.isUndefined(markerTime(null))
    assert.isUndefined(markerTime("kpJ55h3BW"))
    assert.isUndefined(markerTime("gift@not-a-date"))
  })
})

describe("notices", () => {
  const event = (kind: OutboxEvent["kind"], payload: OutboxEvent["payload"]): OutboxEvent => ({
    id: 9 as OutboxEvent["id"],
    kind,
    userId: null,
    payload,
    status: "pending",
    attempts: 0,
    lastError: null,
    availableAt: new Date(0),
    createdAt: new Date(0),
    deliveredAt: null
  })

  it("say what happened with amounts grouped in thousands and a link to the page", () => {
    const failed = renderEvent(event("order.failed", { orderId: 12, kind: "stars", recipient: "bob", refundedUzs: 1_150_000 }))
    assert.strictEqual(failed.notice.title, "Order #12 failed")
    assert.include(failed.notice.body, "Telegram Stars for @bob")
    assert.include(failed.notice.body, "1 150 000 UZS went back to your balance")
    assert.strictEqual(failed.notice.url, "/v2/orders")
    assert.strictEqual(failed.text, `${failed.notice.title}\n${failed.notice.body}`)
    const rejected = renderEvent(event("topup.rejected", { topupId: 3, amountUzs: 50_000, note: "" }))
    assert.strictEqual(rejected.notice.body, "Top-up #3 of 50 000 UZS was rejected.")
  })
})
