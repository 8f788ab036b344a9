/**
 * The wallet road's money decisions, pure: which payment is a quote's, each state reached once and
 * only on its evidence, a second signed message told apart, repeats of an order id.
 */
import { assert, describe, it } from "@effect/vitest"
import { Nanoton } from "../../src/money/Nanoton.ts"
import type { OutgoingPayment } from "../../src/ports/Blockchain.ts"
import { Delivered, Pending, Unattributable } from "../../src/ports/Marketplace.ts"
import type { WalletQuote } from "../../src/ports/WalletQuotes.ts"
import {
  decideLatePayment,
  decideQuote,
  decideRepeat,
  decideReport,
  type QuoteEvidence,
  isQuotePayment
} from "../../src/direct/WalletSettlement.ts"

const quote = (over: Partial<WalletQuote> = {}): WalletQuote => ({
  id: 1,
  orderId: "W1",
  network: "sandbox",
  walletAddress: `0:${"ab".repeat(32)}`,
  account: { address: `0:${"ab".repeat(32)}`, publicKey: "cd".repeat(32), walletStateInit: "te6" },
  kind: "stars",
  fingerprint: "f".repeat(64),
  recipient: "durov",
  units: 50,
  amount: null,
  reqId: "req1",
  ref: "kpJ55h3BW",
  payTo: "UQfragment",
  payAmount: Nanoton.make(460_900_000n),
  payload: "te6payload",
  validUntil: 1_000,
  state: "awaiting_payment",
  boc: null,
  confirm: "unsent",
  txHash: null,
  paidAt: null,
  note: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  settledAt: null,
  ...over
})

const payment = (over: Partial<OutgoingPayment> = {}): OutgoingPayment => ({
  to: "UQfragment",
  amount: Nanoton.make(460_900_000n),
  bodyHash: "00",
  comment: "50 Telegram Stars \n\nRef#kpJ55h3BW",
  txHash: "tx1",
  utime: 990,
  ...over
})

const evidence = (over: Partial<QuoteEvidence> = {}): QuoteEvidence => ({
  payments: [],
  chainTime: 995,
  now: 995,
  marginSeconds: 5,
  deliverySeconds: 60,
  ...over
})

describe("which payment is the quote's", () => {
  it("its whole Ref# and exactly its amount", () => {
    assert.isTrue(isQuotePayment(quote(), payment()))
    assert.isFalse(isQuotePayment(quote(), payment({ amount: Nanoton.make(460_899_999n) })))
    assert.isFalse(isQuotePayment(quote(), payment({ amount: Nanoton.make(460_900_001n) })))
    assert.isFalse(isQuotePayment(quote(), payment({ comment: "50 Telegram Stars \n\nRef#kpJ55h3BWx" })))
    assert.isFalse(isQuotePayment(quote(), payment({ comment: null })))
  })
})

describe("decideQuote", () => {
  it("awaiting: paid once its payment is on chain, with that transaction", () => {
    assert.deepStrictEqual(decideQuote(quote(), evidence({ payments: [payment()] })), {
      _tag: "Settle",
      to: "paid",
      patch: { txHash: "tx1", paidAt: 990 }
    })
  })

  it("awaiting: stays until the chain has passed validUntil plus the margin, then expired (nothing reported) or failed (reported)", () => {
    assert.strictEqual(decideQuote(quote(), evidence({ chainTime: 1_005 }))._tag, "Stay")
    const expired = decideQuote(quote(), evidence({ chainTime: 1_006, now: 2_000 }))
    assert.isTrue(expired._tag === "Settle" && expired.to === "expired")
    const failed = decideQuote(quote({ boc: "te6boc" }), evidence({ chainTime: 1_006 }))
    assert.isTrue(
      failed._tag === "Settle" && failed.to === "failed" && /nothing was paid/.test(failed.patch.note ?? "")
    )
    // the local clock alone never expires a quote: the chain must have been seen past it
    assert.strictEqual(decideQuote(quote(), evidence({ chainTime: 1_000, now: 5_000 }))._tag, "Stay")
  })

  it("paid: delivered on the marketplace's word, paid_unconfirmed on its own evidence or after the delivery window", () => {
    const paid = quote({ state: "paid", txHash: "tx1", paidAt: 990 })
    const delivered = decideQuote(paid, evidence({ delivery: Delivered("req1", "kpJ55h3BW") }))
    assert.isTrue(delivered._tag === "Settle" && delivered.to === "delivered")
    const accepted = decideQuote(
      paid,
      evidence({ delivery: Unattributable("req1", "kpJ55h3BW", "accepted", "another purchase") })
    )
    assert.isTrue(accepted._tag === "Settle" && accepted.to === "paid_unconfirmed")
    assert.strictEqual(
      decideQuote(paid, evidence({ delivery: Unattributable("req1", "kpJ55h3BW", "unsent", "another purchase") }))._tag,
      "Stay"
    )
    assert.strictEqual(
      decideQuote(paid, evidence({ now: 1_049, delivery: Pending("req1", "kpJ55h3BW", "processing", "accepted") }))
        ._tag,
      "Stay"
    )
    const late = decideQuote(
      paid,
      evidence({ now: 1_050, delivery: Pending("req1", "kpJ55h3BW", "processing", "accepted") })
    )
    assert.isTrue(late._tag === "Settle" && late.to === "paid_unconfirmed")
  })

  it("paid after validUntil: delivered if the marketplace still says so, else paid_unconfirmed at once, the order saying why", () => {
    const latePaid = quote({ state: "paid", txHash: "tx1", paidAt: 1_001 })
    const delivered = decideQuote(latePaid, evidence({ now: 1_002, delivery: Delivered("req1", "kpJ55h3BW") }))
    assert.isTrue(delivered._tag === "Settle" && delivered.to === "delivered")
    const pending = decideQuote(
      latePaid,
      evidence({ now: 1_002, delivery: Pending("req1", "kpJ55h3BW", "new", "accepted") })
    )
    assert.isTrue(
      pending._tag === "Settle" &&
        pending.to === "paid_unconfirmed" &&
        /Paid after the quote's deadline \(valid_until 1000, paid at 1001, tx tx1/.test(pending.patch.note ?? "")
    )
    // paid at validUntil itself is in time: the delivery window applies
    const inTime = quote({ state: "paid", txHash: "tx1", paidAt: 1_000 })
    assert.strictEqual(decideQuote(inTime, evidence({ now: 1_002 }))._tag, "Stay")
  })

  it("an expired quote paid afterwards stays expired and names the payment, once", () => {
    const expired = quote({ state: "expired", note: "Not paid before the quote's deadline" })
    assert.strictEqual(decideLatePayment(expired, [])._tag, "Stay")
    const named = decideLatePayment(expired, [payment({ utime: 1_030 })])
    assert.isTrue(
      named._tag === "Settle" &&
        named.to === "expired" &&
        named.patch.txHash === "tx1" &&
        /Paid after the quote's deadline \(valid_until 1000, paid at 1030/.test(named.patch.note ?? "")
    )
    assert.strictEqual(decideLatePayment({ ...expired, txHash: "tx1" }, [payment()])._tag, "Stay")
    for (const state of ["awaiting_payment", "paid", "delivered", "failed"] as const)
      assert.strictEqual(decideLatePayment(quote({ state }), [payment()])._tag, "Stay", state)
  })

  it("a payment seen twice is named in the final note", () => {
    const paid = quote({ state: "paid", txHash: "tx1", paidAt: 990 })
    const twice = decideQuote(
      paid,
      evidence({ payments: [payment(), payment({ txHash: "tx2" })], delivery: Delivered("req1", "kpJ55h3BW") })
    )
    assert.isTrue(twice._tag === "Settle" && /2 payments/.test(twice.patch.note ?? ""))
  })

  it("final states never move", () => {
    for (const state of ["delivered", "paid_unconfirmed", "expired", "failed"] as const) {
      const decision = decideQuote(
        quote({ state, txHash: "tx1" }),
        evidence({ payments: [payment()], chainTime: 9_999, delivery: Delivered("req1", "kpJ55h3BW") })
      )
      assert.strictEqual(decision._tag, "Stay", state)
    }
  })
})

describe("decideReport and decideRepeat", () => {
  it("the first signed message is stored, the same again is the same, another is a second", () => {
    assert.strictEqual(decideReport(quote(), "a"), "store")
    assert.strictEqual(decideReport(quote({ boc: "a" }), "a"), "same")
    assert.strictEqual(decideReport(quote({ boc: "a" }), "b"), "second")
  })

  it("an order id's quote is answered again, replaced, or refused while it may still be paid", () => {
    const same = "f".repeat(64)
    const other = "e".repeat(64)
    assert.strictEqual(decideRepeat(quote(), same, 999, false), "replay")
    assert.strictEqual(decideRepeat(quote(), same, 1_000, false), "busy") // past validUntil, not settled yet
    assert.strictEqual(decideRepeat(quote(), other, 999, false), "busy")
    assert.strictEqual(decideRepeat(quote({ state: "paid" }), other, 999, false), "busy")
    assert.strictEqual(decideRepeat(quote({ state: "delivered" }), same, 5_000, true), "replay")
    assert.strictEqual(decideRepeat(quote({ state: "delivered" }), same, 5_000, false), "replace")
    assert.strictEqual(decideRepeat(quote({ state: "expired" }), same, 5_000, true), "replace")
    assert.strictEqual(decideRepeat(quote({ state: "failed" }), other, 5_000, true), "replace")
  })
})
