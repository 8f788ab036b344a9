import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import type { TopupId, UserId } from "../src/ids.ts"
import type { Uzs } from "../src/money/Uzs.ts"
import {
  choosePayable,
  matchesPayment,
  PAYABLE_OFFSETS,
  payableClaim,
  type PayableTaken
} from "../src/topups/PayableAmount.ts"
import type { Topup, TopupStatus } from "../src/topups/Topup.ts"

const taken = (open: Array<number>, others: Array<number> = [], own: Array<number> = []): PayableTaken => ({
  open: new Set(open),
  quarantinedByOthers: new Set(others),
  ownQuarantined: new Set(own)
})
const choose = (requested: number, t: PayableTaken) => Option.getOrUndefined(choosePayable(requested as Uzs, t))

const owner = 1 as UserId
const since = new Date(1_000)
const topup = (status: TopupStatus, fields: Partial<Topup> = {}): Topup => ({
  id: 1 as TopupId,
  userId: owner,
  method: "card",
  requestedUzs: 10_000 as Uzs,
  payableUzs: 10_000 as Uzs,
  creditedUzs: null,
  status,
  receipt: null,
  adminNote: null,
  paymentId: null,
  confirmedBy: null,
  expiresAt: null,
  createdAt: new Date(2_000),
  updatedAt: new Date(2_000),
  ...fields
})

describe("choosePayable", () => {
  it("takes the smallest offset neither open nor quarantined by others", () => {
    assert.strictEqual(choose(10_000, taken([])), 10_000)
    assert.strictEqual(choose(10_000, taken([10_000, 10_001], [10_002])), 10_003)
  })

  it("prefers the owner's own quarantined amount to a smaller free one", () => {
    assert.strictEqual(choose(10_000, taken([10_000], [], [10_005])), 10_005)
    // ... but never one that is also open or quarantined by someone else
    assert.strictEqual(choose(10_000, taken([10_005], [10_006], [10_005, 10_006])), 10_000)
  })

  it("is exhausted when every offset is open or quarantined by others", () => {
    const all = Array.from({ length: PAYABLE_OFFSETS }, (_, o) => 10_000 + o)
    assert.isTrue(Option.isNone(choosePayable(10_000 as Uzs, taken(all.slice(0, 500), all.slice(500)))))
    assert.strictEqual(choose(10_000, taken(all.slice(1), [], [])), 10_000)
    assert.strictEqual(choose(10_000, taken(all.slice(0, 999), [], [])), 10_999)
  })
})

describe("payableClaim", () => {
  it("open top-ups hold their amount; closed card ones quarantine it within the window", () => {
    assert.strictEqual(payableClaim(topup("pending"), owner, since), "open")
    assert.strictEqual(payableClaim(topup("review"), owner, since), "open")
    assert.strictEqual(payableClaim(topup("review", { method: "receipt" }), owner, since), undefined)
    assert.strictEqual(payableClaim(topup("cancelled"), owner, since), "ownQuarantined")
    assert.strictEqual(payableClaim(topup("cancelled"), 2 as UserId, since), "quarantinedByOthers")
    // an amount an operator credited is blocked for its owner too; a bank-confirmed one is free at once
    assert.strictEqual(payableClaim(topup("paid", { confirmedBy: "operator" }), owner, since), "quarantinedByOthers")
    assert.strictEqual(payableClaim(topup("paid", { confirmedBy: "payment" }), owner, since), undefined)
    const old = { createdAt: new Date(1_000), updatedAt: new Date(1_000) }
    assert.strictEqual(payableClaim(topup("expired", old), 2 as UserId, since), undefined)
  })
})

describe("matchesPayment", () => {
  const now = new Date(10_000)
  it("a pending card top-up only while live; one in review past its old expiry; closed ones never", () => {
    assert.isTrue(matchesPayment(topup("pending", { expiresAt: new Date(10_001) }), now))
    assert.isFalse(matchesPayment(topup("pending", { expiresAt: now }), now))
    assert.isTrue(matchesPayment(topup("review", { expiresAt: new Date(1) }), now))
    assert.isFalse(matchesPayment(topup("review", { method: "receipt" }), now), "a receipt-only top-up")
    for (const closed of ["paid", "cancelled", "rejected", "expired"] as const) {
      assert.isFalse(matchesPayment(topup(closed, { expiresAt: new Date(10_001) }), now), closed)
    }
  })
})
