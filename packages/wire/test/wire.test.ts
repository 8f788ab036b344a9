import { assert, describe, it } from "@effect/vitest"
import { Order } from "@resale/core/orders/Order.ts"
import { Schema } from "effect"
import * as Records from "../src/Records.ts"
import { adminOrderOut, orderOut } from "../src/Wire.ts"

const AT = new Date("2026-01-31T12:00:00.000Z")

// A stored order as the core decodes it (decoded, not cast: the brands are checked).
const order = (item: typeof Order.Type.item) =>
  Schema.decodeUnknownSync(Order)({
    id: 42,
    userId: 7,
    recipient: "durov",
    item,
    priceUzs: 180_000,
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
    createdAt: AT,
    updatedAt: AT,
    completedAt: null,
    delivery: null
  })

describe("wire shapes", () => {
  it("a premium order answers duration, and months as its deprecated alias with the same value", () => {
    const premium = orderOut(order({ kind: "premium", months: 6 }))
    assert.strictEqual(premium.duration, 6)
    assert.strictEqual(premium.months, 6)
    const stars = orderOut(order({ kind: "stars", stars: 100 }))
    assert.deepStrictEqual([stars.stars, stars.duration, stars.months], [100, null, null])
  })

  it("every mapped order encodes through the contract's own schemas, nothing more and nothing less", () => {
    const o = order({ kind: "premium", months: 3 })
    const encoded = Schema.encodeSync(Records.AdminOrder)(adminOrderOut(o))
    assert.deepStrictEqual(Object.keys(encoded), Object.keys(Records.AdminOrder.fields))
    assert.deepStrictEqual(Object.keys(orderOut(o)), Object.keys(Records.Order.fields))
  })
})
