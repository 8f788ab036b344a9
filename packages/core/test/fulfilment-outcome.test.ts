import { assert, describe, it } from "@effect/vitest"
import type { OutboxEvent } from "../src/outbox/OutboxEvent.ts"
import { isTransientReason, MarketplaceErrorReason } from "../src/ports/Marketplace.ts"
import { giftMarker, markerTime } from "../src/orders/GiftFulfilment.ts"
import {
  Busy,
  deliveredByReceipt,
  NotDelivered,
  refusedByMarketplace,
  Unknown
} from "../src/orders/FulfilmentOutcome.ts"
import { renderEvent } from "../src/outbox/Notices.ts"

/** The outcomes `BatchedPurchases` answers for an account order, built by the core's one outcome type. */
describe("what a hot-wallet purchase means for an account order", () => {
  it("money that may have left is never a refund: Unknown, with what is known", () => {
    assert.deepStrictEqual(Unknown("MarketplaceTimeout: paid", "R1", { txHash: "tx1", chainState: "paid" }), {
      _tag: "Unknown",
      error: "MarketplaceTimeout: paid",
      ref: "R1",
      txHash: "tx1",
      chainState: "paid"
    })
    assert.deepStrictEqual(Unknown("open", null, { txHash: null, chainState: "open" }), {
      _tag: "Unknown",
      error: "open",
      chainState: "open"
    })
    assert.deepStrictEqual(Unknown("held", "R2", { chainState: "held", attentionNow: true }), {
      _tag: "Unknown",
      error: "held",
      ref: "R2",
      chainState: "held",
      attentionNow: true
    })
  })

  it("paid once: delivered, and settled on its own evidence only when the marketplace never confirmed", () => {
    assert.deepStrictEqual(deliveredByReceipt({ txHash: "tx", ref: "R", delivery: "delivered", deliveryNote: null }), {
      _tag: "Delivered",
      txId: "tx",
      ref: "R"
    })
    assert.deepStrictEqual(deliveredByReceipt({ txHash: "tx", ref: "R", delivery: "paid", deliveryNote: "evidence" }), {
      _tag: "Delivered",
      txId: "tx",
      ref: "R",
      unconfirmed: "evidence"
    })
  })

  it("nothing paid: refusals fail the order, the hot wallet's and the network's troubles retry, in flight waits", () => {
    assert.deepStrictEqual(NotDelivered(true, "Nothing was paid"), {
      _tag: "NotDelivered",
      transient: true,
      error: "Nothing was paid"
    })
    assert.deepStrictEqual(NotDelivered(false, "InvalidRequest: m"), {
      _tag: "NotDelivered",
      transient: false,
      error: "InvalidRequest: m"
    })
    assert.deepStrictEqual(Busy("busy"), { _tag: "Busy", error: "busy" })
  })

  it("the marketplace's own reason decides: an outage retries, a refusal fails and refunds", () => {
    // A Fragment 5xx during the quote answers MARKETPLACE_ERROR to a direct caller, but an order waits and retries.
    for (const reason of ["Unavailable", "Timeout", "Blocked", "SessionBusy"] as const) {
      assert.deepStrictEqual(refusedByMarketplace(reason, "m"), {
        _tag: "NotDelivered",
        transient: true,
        error: `MarketplaceRejected (${reason}): m`
      })
    }
    const permanent = MarketplaceErrorReason.literals.filter((r) => !isTransientReason(r))
    assert.sameMembers(permanent, [
      "Rejected",
      "AlreadySubscribed",
      "RecipientNotFound",
      "NeedVerify",
      "SessionExpired"
    ])
    for (const reason of permanent) {
      assert.deepStrictEqual(refusedByMarketplace(reason, "m"), {
        _tag: "NotDelivered",
        transient: false,
        error: `MarketplaceRejected (${reason}): m`
      })
    }
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
    const failed = renderEvent(
      event("order.failed", { orderId: 12, kind: "stars", recipient: "bob", refundedUzs: 1_150_000 })
    )
    assert.strictEqual(failed.notice.title, "Order #12 failed")
    assert.include(failed.notice.body, "Telegram Stars for @bob")
    assert.include(failed.notice.body, "1 150 000 UZS went back to your balance")
    assert.strictEqual(failed.notice.url, "/v2/orders")
    assert.strictEqual(failed.text, `${failed.notice.title}\n${failed.notice.body}`)
    const rejected = renderEvent(event("topup.rejected", { topupId: 3, amountUzs: 50_000, note: "" }))
    assert.strictEqual(rejected.notice.body, "Top-up #3 of 50 000 UZS was rejected.")
  })
})
