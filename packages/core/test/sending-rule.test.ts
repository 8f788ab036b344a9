/** When a free slot of the hot wallet holds what is ready for a fuller batch (`SendingRule.ts`). */
import { assert, describe, it } from "@effect/vitest"
import { holdForFullerBatch, type SlotState } from "../src/wallet/SendingRule.ts"

// One message in flight, sent 1 s ago, of a Highload V3 with 4 slots; one invoice ready, none quoting.
const base: SlotState = {
  now: 10_000,
  running: 1,
  parallel: 4,
  sent: [9_000],
  ready: 1,
  quoting: 0,
  limit: 254,
  fillWithin: 5_000
}

describe("the sending rule of a free slot", () => {
  it("sends at once while orders trickle in and a slot has not sent lately", () => {
    assert.isFalse(holdForFullerBatch(base))
    assert.isFalse(holdForFullerBatch({ ...base, sent: [6_000, 7_000, 9_000] }), "three of four slots sent lately")
    assert.isFalse(holdForFullerBatch({ ...base, quoting: 1 }), "as many quoting as ready: not a rush")
  })

  it("holds while every slot sent within the wait, until the oldest of those is that old", () => {
    const busy = { ...base, sent: [6_000, 7_000, 8_000, 9_000] }
    assert.isTrue(holdForFullerBatch(busy))
    assert.isFalse(holdForFullerBatch({ ...busy, now: 11_000 }), "the oldest went out 5 s ago")
  })

  it("holds in a rush (more quoting than ready) until the latest message is the wait old", () => {
    const rush = { ...base, quoting: 40, ready: 3 }
    assert.isTrue(holdForFullerBatch(rush))
    assert.isFalse(holdForFullerBatch({ ...rush, now: 14_000 }))
  })

  it("never holds a full batch, a lone order, or with no wait set", () => {
    const held = { ...base, sent: [6_000, 7_000, 8_000, 9_000], quoting: 400 }
    assert.isTrue(holdForFullerBatch(held))
    assert.isFalse(holdForFullerBatch({ ...held, ready: 254 }), "a full batch")
    assert.isFalse(holdForFullerBatch({ ...held, running: 0 }), "nothing in flight")
    assert.isFalse(holdForFullerBatch({ ...held, fillWithin: 0 }), "HOT_WALLET_BATCH_WAIT=0")
  })
})
