/**
 * Per-order proof: an order counts as paid to the marketplace only on its own evidence (payment
 * confirmed on chain with its Ref#, and its signed message accepted), never on another order's state.
 */
import { assert, describe, it } from "@effect/vitest"
import { DELIVERY_UNCONFIRMED, deliveryOf, paidEvidence } from "../src/direct/DeliveryEvidence.ts"
import { Nanoton } from "../src/money/Nanoton.ts"
import { Pending, Unattributable } from "../src/ports/Marketplace.ts"
import type { DirectPurchaseRecord } from "../src/ports/DirectPurchaseRecords.ts"

const at = new Date("2026-11-26T08:00:00Z")
const paid: DirectPurchaseRecord = {
  id: 1,
  orderId: "o-1",
  kind: "stars",
  state: "unknown",
  fingerprint: "f",
  network: "sandbox",
  walletAddress: "UQwallet",
  walletVersion: "v4r2",
  recipient: "fan",
  amount: null,
  units: 50,
  comment: null,
  marketplaceReqId: "req-1",
  ref: "kpJ55h3BW",
  payTo: "UQfragment",
  payAmount: Nanoton.make(460_900_000n),
  prepared: {
    wallet: "UQwallet",
    to: "UQfragment",
    amount: Nanoton.make(460_900_000n),
    bounce: false,
    seqno: 1,
    createdAt: 1,
    validUntil: 2,
    externalHash: "ab",
    boc: "te6"
  },
  txHash: "cafe",
  fee: Nanoton.make(5_000_000n),
  walletLocked: false,
  errorReason: null,
  errorMessage: null,
  attempts: 1,
  createdAt: at,
  updatedAt: at,
  completedAt: null
}

describe("delivery evidence", () => {
  it("paid on chain with its Ref# and an accepted signed message: paid, with the evidence spelled out", () => {
    const text = paidEvidence(paid, Unattributable("req-1", "kpJ55h3BW", "accepted", "the session moved on"))
    assert.include(text ?? "", "tx cafe sent 0.4609 TON to UQfragment with Ref#kpJ55h3BW")
    assert.include(text ?? "", "the session moved on")
    assert.include(
      paidEvidence(paid, Pending("req-1", "kpJ55h3BW", "processing", "accepted")) ?? "",
      'still says "processing"'
    )
  })

  it("without its own proof it is not paid: signed message refused or unsent, or no payment on chain", () => {
    assert.isUndefined(paidEvidence(paid, Unattributable("req-1", "kpJ55h3BW", "refused", "x")))
    assert.isUndefined(paidEvidence(paid, Unattributable("req-1", "kpJ55h3BW", "unsent", "x")))
    assert.isUndefined(paidEvidence({ ...paid, txHash: null }, Unattributable("req-1", "kpJ55h3BW", "accepted", "x")))
    assert.isUndefined(paidEvidence({ ...paid, ref: null }, Unattributable("req-1", "kpJ55h3BW", "accepted", "x")))
  })

  it("a done order says how its delivery was established", () => {
    assert.strictEqual(deliveryOf({ errorReason: null }), "delivered")
    assert.strictEqual(deliveryOf({ errorReason: DELIVERY_UNCONFIRMED }), "paid")
  })
})
