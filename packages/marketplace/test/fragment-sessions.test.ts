/**
 * One purchase at a time per Fragment cookie session, and delivery read only while the invoice is
 * its session's latest one (the simulator answers `update*State` for the session, as fragment.com
 * evidently does); several sessions buy side by side.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Redacted } from "effect"
import { MarketplaceSessions } from "@resale/core/ports/MarketplaceSessions.ts"
import { makeFragmentMarketplace } from "../src/FragmentMarketplace.ts"
import { makeMemorySessions } from "../src/MemorySessions.ts"
import { FragmentSimulator } from "../src/simulator/FragmentSimulator.ts"
import { payer, signedBoc, simulated } from "./harness.ts"

describe("Fragment sessions", () => {
  it.live("a session busy with a paid purchase makes the next quote wait until that one is delivered", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated({}, { sessionWait: "20 seconds" })
      const first = yield* market.quoteStars({ username: "first_buyer", quantity: 50, payer })
      const second = yield* Effect.forkChild(market.quoteStars({ username: "second_buyer", quantity: 60, payer }))
      yield* Effect.sleep("300 millis")
      assert.strictEqual(sim.control.calls("initBuyStarsRequest").length, 1, "the second waits for the session")
      assert.strictEqual(
        (yield* market.confirm({ kind: "stars", reqId: first.reqId, ref: first.ref, boc: signedBoc }))._tag,
        "Pending"
      )
      assert.strictEqual(
        (yield* market.confirm({ kind: "stars", reqId: first.reqId, ref: first.ref }))._tag,
        "Delivered"
      )
      const next = yield* Fiber.join(second)
      assert.strictEqual(sim.control.invoice(next.reqId)?.username, "second_buyer")
    })
  )

  it.live("every session busy: the quote gives up as SessionBusy after FRAGMENT_SESSION_WAIT, nothing opened", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated({}, { sessionWait: "300 millis" })
      yield* market.quoteStars({ username: "holder", quantity: 50, payer })
      const busy = yield* Effect.flip(market.quoteStars({ username: "waiter", quantity: 50, payer }))
      assert.strictEqual(busy.reason, "SessionBusy")
      assert.match(busy.message, /busy with another purchase; nothing was bought/)
      assert.strictEqual(sim.control.invoices().length, 1)
    })
  )

  it.live("two sessions buy side by side, each invoice on its own session", () =>
    Effect.gen(function* () {
      const sim = yield* FragmentSimulator.scoped()
      const market = yield* makeFragmentMarketplace(
        sim.fragmentOptions({
          sessionWait: "200 millis",
          moreSessions: [{ label: "second", cookies: Redacted.make(sim.control.newSession()) }]
        })
      )
      const [a, b] = yield* Effect.all(
        [
          market.quoteStars({ username: "side_a", quantity: 50, payer }),
          market.quoteStars({ username: "side_b", quantity: 50, payer })
        ],
        { concurrency: "unbounded" }
      )
      assert.notStrictEqual(sim.control.invoice(a.reqId)?.ssid, sim.control.invoice(b.reqId)?.ssid)
      for (const p of [a, b]) {
        sim.control.markPaid(p.ref)
        assert.strictEqual((yield* market.confirm({ kind: "stars", reqId: p.reqId, ref: p.ref }))._tag, "Pending")
        assert.strictEqual((yield* market.confirm({ kind: "stars", reqId: p.reqId, ref: p.ref }))._tag, "Delivered")
      }
    })
  )

  it.live(
    "a simulator offering 3 sessions: 12 batched quotes at once are spread over all 3, a 429 on the way backed off",
    () =>
      Effect.gen(function* () {
        const sim = yield* FragmentSimulator.scoped({ sessions: 3 })
        assert.deepStrictEqual(
          sim.moreSessions.map((s) => s.label),
          ["s2", "s3"]
        )
        const market = yield* makeFragmentMarketplace(sim.fragmentOptions({ sessionWait: "2 seconds" }))
        sim.control.inject({ method: "initBuyStarsRequest", status: 429, headers: { "retry-after": "0" }, times: 2 })
        const quotes = yield* Effect.forEach(
          Array.from({ length: 12 }, (_, i) => i),
          (i) => market.quoteStars({ username: `spread_${i}`, quantity: 50, payer, batched: true }),
          { concurrency: "unbounded" }
        )
        const sessions = new Set(quotes.map((q) => sim.control.invoice(q.reqId)?.ssid))
        assert.strictEqual(sessions.size, 3, "every session served some")
        assert.strictEqual(new Set(quotes.map((q) => q.ref)).size, 12)
        assert.strictEqual(
          sim.control.calls("initBuyStarsRequest").length,
          14,
          "12 invoices, 2 rate-limited tries repeated"
        )
      })
  )

  it.live("batched quotes ask the session store only for sessions this process is not quoting on", () =>
    Effect.gen(function* () {
      const sim = yield* FragmentSimulator.scoped({ sessions: 3 })
      const memory = makeMemorySessions()
      let refused = 0
      const counting = {
        ...memory,
        take: (...args: Parameters<typeof memory.take>) =>
          Effect.tap(memory.take(...args), (taken) => Effect.sync(() => void (refused += taken ? 0 : 1)))
      }
      const market = yield* makeFragmentMarketplace(sim.fragmentOptions({ sessionWait: "2 seconds" })).pipe(
        Effect.provideService(MarketplaceSessions, counting)
      )
      const quotes = yield* Effect.forEach(
        Array.from({ length: 12 }, (_, i) => i),
        (i) => market.quoteStars({ username: `asked_${i}`, quantity: 50, payer, batched: true }),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(new Set(quotes.map((q) => sim.control.invoice(q.reqId)?.ssid)).size, 3)
      assert.strictEqual(refused, 0, "no take refused for a session held by this process's own quote")
    })
  )

  it.live(
    "once the session opened another purchase, an older invoice is Unattributable, with its own confirmReq answer",
    () =>
      Effect.gen(function* () {
        // a state read holds the session for two request timeouts (here 2 x 500 ms) at least
        const { sim, market } = yield* simulated(
          {},
          { sessionHold: "200 millis", sessionWait: "5 seconds", timeout: "500 millis" }
        )
        const paid = yield* market.quoteStars({ username: "paid_first", quantity: 50, payer })
        sim.control.set({ neverFinish: true })
        sim.control.markPaid(paid.ref)
        const live = yield* market.confirm({ kind: "stars", reqId: paid.reqId, ref: paid.ref, boc: signedBoc, payer })
        assert.deepStrictEqual(live, {
          _tag: "Pending",
          reqId: paid.reqId,
          ref: paid.ref,
          mode: "processing",
          confirm: "accepted"
        })
        // the hold runs out; another caller opens (and cancels) an invoice in the same session
        yield* Effect.sleep("1100 millis")
        const other = yield* market.quoteStars({ username: "changed_mind", quantity: 70, payer })
        yield* market.cancel("stars", other.reqId)
        const later = yield* market.confirm({ kind: "stars", reqId: paid.reqId, ref: paid.ref })
        assert.strictEqual(later._tag, "Unattributable")
        assert.strictEqual(later._tag === "Unattributable" && later.confirm, "accepted")
        // the session's state now speaks of the cancelled quote: it was not even read for the paid invoice
        const calls = sim.control.calls().map((c) => c.method)
        assert.notInclude(calls.slice(calls.lastIndexOf("initBuyStarsRequest")), "updateStarsBuyState")
        assert.strictEqual(sim.control.invoice(paid.reqId)?.status, "processing")
      })
  )
})
