import { assert, describe, it } from "@effect/vitest"
import type { TopupId, UserId } from "../src/ids.ts"
import type { Uzs } from "../src/money/Uzs.ts"
import { CANDIDATES_SHOWN, paymentCandidates } from "../src/payments/PaymentCandidates.ts"
import {
  CANDIDATE_TOLERANCE,
  DUPLICATE_TOLERANCE,
  isNearCandidate,
  isNearDuplicate,
  withinTolerance
} from "../src/topups/NearAmount.ts"
import type { Topup } from "../src/topups/Topup.ts"

const topup = (id: number, requested: number, payable: number): Topup => ({
  id: id as TopupId,
  userId: 1 as UserId,
  method: "card",
  requestedUzs: requested as Uzs,
  payableUzs: payable as Uzs,
  creditedUzs: null,
  status: "pending",
  receipt: null,
  adminNote: null,
  paymentId: null,
  confirmedBy: null,
  expiresAt: null,
  createdAt: new Date(0),
  updatedAt: new Date(0)
})

describe("near amount", () => {
  it("a tolerance is a share of the larger amount, never below its floor, and symmetric", () => {
    const near = withinTolerance({ ratio: 0.1, minUzs: 50 })
    assert.isTrue(near(1_000, 1_100))
    assert.isTrue(near(1_100, 1_000))
    assert.isFalse(near(1_000, 1_113))
    assert.isTrue(near(100, 150))
    assert.isFalse(near(100, 151))
  })

  it("the duplicate hold is narrower than the candidate list", () => {
    assert.isTrue(DUPLICATE_TOLERANCE.ratio < CANDIDATE_TOLERANCE.ratio)
    // 1,000 so'm floor for both
    assert.isTrue(isNearDuplicate(30_000, 31_000))
    assert.isFalse(isNearDuplicate(30_000, 31_001))
    // 1 % of the larger amount: 505,000 is near 500,000, 505,100 is not (1 % of it is 5,051)
    assert.isTrue(isNearDuplicate(500_000, 505_000))
    assert.isFalse(isNearDuplicate(500_000, 505_100))
    // 5 % of 500,000 is 25,000
    assert.isTrue(isNearCandidate(500_000, 525_000))
    assert.isTrue(isNearCandidate(525_000, 500_000))
    assert.isFalse(isNearCandidate(500_000, 526_400))
    assert.isTrue(isNearCandidate(10_000, 11_000))
    assert.isFalse(isNearCandidate(10_000, 11_001))
  })

  it("payment candidates: the requested amount exactly or a payable near it, closest first, then newest, at most five", () => {
    const open = [
      topup(1, 100_000, 100_003),
      topup(2, 100_000, 100_000),
      topup(3, 50_000, 50_000),
      topup(4, 100_000, 104_000),
      topup(5, 99_000, 99_000),
      topup(6, 100_000, 100_003),
      topup(7, 100_000, 120_000)
    ]
    const found = paymentCandidates(100_000, open)
    assert.deepStrictEqual(
      found.map((c) => [c.topup.id, c.difference]),
      [
        [2, 0],
        [6, 3],
        [1, 3],
        [5, -1_000],
        [4, 4_000]
      ]
    )
    assert.strictEqual(found.length, CANDIDATES_SHOWN)
    // a payment of the requested amount finds its top-up even when the payable is far off
    assert.deepStrictEqual(
      paymentCandidates(100_000, [topup(7, 100_000, 120_000)]).map((c) => c.topup.id),
      [7]
    )
    assert.deepStrictEqual(paymentCandidates(80_000, open), [])
  })
})
