/**
 * A batched purchase lends its Fragment session instead of letting it go: while sessions are free
 * its delivery stays the session's to read (confirmed, not settled on evidence); a quote that finds no
 * free session takes a lent one over at once (as when batched quotes let go), and the lender then
 * reads as `Unattributable` with its own confirmReq answer. On the loopback simulator, real HTTP.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Marketplace, PaymentRequest } from "@resale/core/ports/Marketplace.ts"
import { FragmentSimulator } from "../src/simulator/FragmentSimulator.ts"
import { makeFragmentMarketplace } from "../src/FragmentMarketplace.ts"
import { payer, signedBoc } from "./harness.ts"

const batched = (market: Marketplace["Service"], username: string) =>
  market.quoteStars({ username, quantity: 50, payer, batched: true })

/** Reports the signed message, then reads until Fragment's state is no longer "processing" (two reads here). */
const settle = (market: Marketplace["Service"], p: PaymentRequest) =>
  Effect.gen(function* () {
    const first = yield* market.confirm({ kind: "stars", reqId: p.reqId, ref: p.ref, boc: signedBoc, payer })
    return first._tag === "Pending" ? yield* market.confirm({ kind: "stars", reqId: p.reqId, ref: p.ref }) : first
  })

describe("lent Fragment sessions", () => {
  it.live("a quote prefers a free session to one lent by a purchase whose delivery is not read yet", () =>
    Effect.gen(function* () {
      const sim = yield* FragmentSimulator.scoped({ sessions: 2 })
      const market = yield* makeFragmentMarketplace(sim.fragmentOptions({ sessionWait: "2 seconds" }))
      const slow = yield* batched(market, "slow_payer")
      const fast = yield* batched(market, "fast_payer")
      sim.control.markPaid(fast.ref)
      assert.strictEqual((yield* settle(market, fast))._tag, "Delivered")
      // the fast one's session is free again; the slow one's is only lent: the next quote goes to the free one
      const next = yield* batched(market, "next_buyer")
      assert.strictEqual(sim.control.invoice(next.reqId)?.ssid, sim.control.invoice(fast.reqId)?.ssid)
      sim.control.markPaid(slow.ref)
      assert.strictEqual((yield* settle(market, slow))._tag, "Delivered", "its session still reads its delivery")
    })
  )

  it.live("with no free session the next quote takes a lent one at once; the lender keeps its own evidence", () =>
    Effect.gen(function* () {
      const sim = yield* FragmentSimulator.scoped()
      // the lender's hold lasts minutes: a quote that waited for it would give up as SessionBusy
      const market = yield* makeFragmentMarketplace(sim.fragmentOptions({ sessionWait: "300 millis" }))
      const lender = yield* batched(market, "lender")
      const taker = yield* batched(market, "taker")
      sim.control.markPaid(lender.ref)
      const state = yield* market.confirm({
        kind: "stars",
        reqId: lender.reqId,
        ref: lender.ref,
        boc: signedBoc,
        payer
      })
      assert.strictEqual(state._tag, "Unattributable")
      assert.strictEqual(state._tag === "Unattributable" && state.confirm, "accepted")
      sim.control.markPaid(taker.ref)
      assert.strictEqual((yield* settle(market, taker))._tag, "Delivered")
    })
  )

  it.live("a lone batched purchase is confirmed, and its session is free once its delivery is read", () =>
    Effect.gen(function* () {
      const sim = yield* FragmentSimulator.scoped()
      const market = yield* makeFragmentMarketplace(sim.fragmentOptions({ sessionWait: "300 millis" }))
      const alone = yield* batched(market, "alone")
      sim.control.markPaid(alone.ref)
      assert.strictEqual((yield* settle(market, alone))._tag, "Delivered")
      // delivered: the session is free, a plain quote has it without waiting
      const after = yield* market.quoteStars({ username: "after", quantity: 50, payer })
      assert.strictEqual(sim.control.invoice(after.reqId)?.username, "after")
    })
  )
})
