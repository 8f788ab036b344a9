/**
 * "Price was changed" between the quote's view of the page and its init: the adapter re-syncs the
 * page (state and search again) and retries the init, at most three times, as the public clients
 * that handle it do; only a price that keeps changing fails the quote (nothing opened, nothing paid).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { payer, simulated } from "./harness.ts"

const STAR = 9_218_000n

describe("Fragment price changes", () => {
  it.live("two changes: re-synced and retried, the invoice carries the new price", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.set({ priceChanges: 2 })
      const payment = yield* market.quoteStars({ username: "price_fan", quantity: 50, payer })
      assert.isAbove(Number(payment.amount), Number(STAR * 50n))
      assert.strictEqual(sim.control.invoice(payment.reqId)?.amount, payment.amount)
      // each retry reads the page state again before the next init
      const steps = sim.control
        .calls()
        .map((c) => c.method)
        .filter((m) => m !== "getBuyStarsLink")
      assert.deepStrictEqual(steps, [
        "searchStarsRecipient",
        "updateStarsBuyState",
        "initBuyStarsRequest",
        "searchStarsRecipient",
        "updateStarsBuyState",
        "initBuyStarsRequest",
        "searchStarsRecipient",
        "updateStarsBuyState",
        "initBuyStarsRequest"
      ])
    })
  )

  it.live("a price that keeps changing fails as Rejected after three retries, and the session is free", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated({}, { sessionWait: "200 millis" })
      sim.control.set({ priceChanges: 10 })
      const error = yield* Effect.flip(market.quoteStars({ username: "price_fan", quantity: 50, payer }))
      assert.strictEqual(error.reason, "Rejected")
      assert.match(error.message, /Price was changed.*still changing after 3 retries/)
      assert.strictEqual(sim.control.calls("initBuyStarsRequest").length, 4)
      assert.strictEqual(sim.control.invoices().length, 0)
      sim.control.set({ priceChanges: 0 })
      const next = yield* market.quoteStars({ username: "price_fan", quantity: 50, payer })
      assert.strictEqual(sim.control.invoice(next.reqId)?.status, "linked")
    })
  )
})
