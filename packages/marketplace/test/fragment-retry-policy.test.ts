/**
 * Fragment under the product's one retry policy, over real loopback HTTP: a 429 is retried after the
 * server's Retry-After, a Retry-After too long to wait for ends the call at once, and a call that may
 * have taken effect (an init, a confirmReq) is never repeated after a 5xx or a timeout.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { payer, signedBoc, simulated } from "./harness.ts"

describe("Fragment retry policy", () => {
  it.live("a 429 waits at least the server's Retry-After, then the call goes through", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.inject({ method: "searchStarsRecipient", status: 429, headers: { "retry-after": "1" } })
      const started = Date.now()
      const found = yield* market.lookupRecipient("stars", "patient_fan")
      // the policy's own backoff is 10 ms here: only Retry-After explains a wait of a second
      assert.isAtLeast(Date.now() - started, 1_000)
      assert.strictEqual(found.username, "patient_fan")
      assert.deepStrictEqual(
        sim.control.calls("searchStarsRecipient").map((c) => c.status),
        [429, 200]
      )
    })
  )

  it.live("a Retry-After longer than the policy waits ends the call as Unavailable, nothing opened", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.inject({ method: "initBuyStarsRequest", status: 429, headers: { "retry-after": "3600" }, times: 4 })
      const error = yield* Effect.flip(market.quoteStars({ username: "throttled_fan", quantity: 50, payer }))
      assert.strictEqual(error.reason, "Unavailable")
      assert.include(error.message, "rate limit")
      assert.strictEqual(sim.control.calls("initBuyStarsRequest").length, 1)
      assert.strictEqual(sim.control.invoices().length, 0)
    })
  )

  it.live("an init that answered 5xx is not repeated: it may have opened an invoice", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.inject({ method: "initBuyStarsRequest", status: 502 })
      const error = yield* Effect.flip(market.quoteStars({ username: "once_only", quantity: 50, payer }))
      assert.strictEqual(error.reason, "Unavailable")
      assert.strictEqual(sim.control.calls("initBuyStarsRequest").length, 1)
    })
  )

  it.live("an init past the timeout is not repeated either", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated({}, { timeout: "150 millis" })
      sim.control.inject({ method: "initBuyStarsRequest", delayMs: 1_000 })
      const error = yield* Effect.flip(market.quoteStars({ username: "slow_init", quantity: 50, payer }))
      assert.strictEqual(error.reason, "Timeout")
      // the delayed first call has not answered yet; a repeat would have been answered at once
      assert.strictEqual(sim.control.calls("initBuyStarsRequest").length, 0)
    })
  )

  it.live("a confirmReq that answered 5xx is reported once, as unsent, and not repeated", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      const payment = yield* market.quoteStars({ username: "confirm_once", quantity: 50, payer })
      sim.control.inject({ method: "confirmReq", status: 500 })
      const state = yield* market.confirm({
        kind: "stars",
        reqId: payment.reqId,
        ref: payment.ref,
        boc: signedBoc,
        payer
      })
      assert.deepStrictEqual(state, {
        _tag: "Pending",
        reqId: payment.reqId,
        ref: payment.ref,
        mode: "new",
        confirm: "unsent"
      })
      // the report is repeated by the next confirm (its caller's decision), not by the transport
      assert.strictEqual(sim.control.calls("confirmReq").length, 1)
    })
  )
})
