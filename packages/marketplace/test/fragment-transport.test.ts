/**
 * Transport behaviour over real loopback HTTP: api hash from the page, stale-hash refresh,
 * 429 backoff, timeouts, 5xx and malformed answers.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { extractApiHash } from "../src/FragmentTransport.ts"
import { payer, simulated } from "./harness.ts"

describe("Fragment transport", () => {
  it("finds the hash in ajInit's JSON-escaped apiUrl and in plain links", () => {
    assert.strictEqual(extractApiHash(`ajInit({"version":1,"apiUrl":"\\/api?hash=0a1b2c3d4e"});`), "0a1b2c3d4e")
    assert.strictEqual(extractApiHash(`<a href="https://fragment.com/api?hash=ff00">`), "ff00")
    assert.isUndefined(extractApiHash(`<html>no api here</html>`))
  })

  it.live("loads each page's hash once and reuses it", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      yield* market.lookupRecipient("stars", "first_one")
      yield* market.lookupRecipient("stars", "second_one")
      yield* market.lookupRecipient("premium", "third_one")
      assert.deepStrictEqual(
        sim.control.pageLoads().map((p) => p.page),
        ["/stars/buy", "/premium/gift"]
      )
    })
  )

  it.live("a stale hash is refreshed once and the call retried", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      yield* market.lookupRecipient("stars", "before_rotation")
      sim.control.rotateHash()
      const payment = yield* market.quoteStars({ username: "after_rotation", quantity: 50, payer })
      assert.strictEqual(sim.control.invoice(payment.reqId)?.ref, payment.ref)
      const loads = sim.control.pageLoads()
      assert.strictEqual(loads.length, 2)
      assert.notStrictEqual(loads[0]!.hash, loads[1]!.hash)
      // exactly one "Bad request" answer: the first search after the rotation
      assert.strictEqual(sim.control.calls("searchStarsRecipient").length, 3)
    })
  )

  it.live("HTTP 429 is retried up to three times", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.inject({ method: "initBuyStarsRequest", status: 429, times: 3 })
      const payment = yield* market.quoteStars({ username: "rate_limited", quantity: 50, payer })
      assert.strictEqual(
        sim.control
          .calls("initBuyStarsRequest")
          .map((c) => c.status)
          .join(","),
        "429,429,429,200"
      )
      assert.strictEqual(sim.control.invoices().length, 1)
      assert.strictEqual(sim.control.invoice(payment.reqId)?.status, "linked")
    })
  )

  it.live("a fourth 429 gives up as Unavailable", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.inject({ method: "searchStarsRecipient", status: 429, times: 4 })
      const error = yield* Effect.flip(market.lookupRecipient("stars", "always_limited"))
      assert.strictEqual(error.reason, "Unavailable")
      assert.strictEqual(sim.control.calls("searchStarsRecipient").length, 4)
    })
  )

  it.live("a slow answer past the timeout is Timeout", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated({}, { timeout: "150 millis" })
      sim.control.inject({ method: "searchPremiumGiftRecipient", delayMs: 1_000 })
      const started = Date.now()
      const error = yield* Effect.flip(market.lookupRecipient("premium", "slow_answer"))
      assert.strictEqual(error.reason, "Timeout")
      assert.isBelow(Date.now() - started, 900)
      // the next call works again on the same connection pool
      const found = yield* market.lookupRecipient("premium", "slow_answer")
      assert.strictEqual(found.username, "slow_answer")
    })
  )

  it.live("a slow answer within the timeout is fine", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated({}, { timeout: "2 seconds" })
      sim.control.inject({ method: "searchStarsRecipient", delayMs: 200 })
      const found = yield* market.lookupRecipient("stars", "patient_user")
      assert.strictEqual(found.username, "patient_user")
    })
  )

  it.live("a timeout after the invoice opened cancels it", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated({}, { timeout: "150 millis" })
      sim.control.inject({ method: "getBuyStarsLink", delayMs: 1_000 })
      const error = yield* Effect.flip(market.quoteStars({ username: "link_timeout", quantity: 50, payer }))
      assert.strictEqual(error.reason, "Timeout")
      assert.strictEqual(sim.control.invoices()[0]?.status, "cancelled")
    })
  )

  it.live("HTTP 5xx and malformed JSON are Unavailable, on pages and on api calls", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.inject({ method: "/stars/buy", status: 502 })
      const page = yield* Effect.flip(market.lookupRecipient("stars", "page_down"))
      sim.control.inject({ method: "searchStarsRecipient", status: 500 })
      const api = yield* Effect.flip(market.lookupRecipient("stars", "api_down"))
      sim.control.inject({ method: "getBuyStarsLink", malformed: true })
      const malformed = yield* Effect.flip(market.quoteStars({ username: "broken_json", quantity: 50, payer }))
      assert.deepStrictEqual([page.reason, api.reason, malformed.reason], ["Unavailable", "Unavailable", "Unavailable"])
      assert.include(malformed.message, "malformed")
      // the invoice behind the broken link answer was cancelled, nothing to pay
      assert.deepStrictEqual(
        sim.control.invoices().map((i) => i.status),
        ["cancelled"]
      )
    })
  )

  it.live("error messages never carry cookies or hashes", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.set({ sessionExpired: true })
      const error = yield* Effect.flip(market.lookupRecipient("stars", "secret_check"))
      const hash = sim.control.pageLoads()[0]!.hash!
      for (const secret of [hash, ...sim.cookies.split("; ").map((c) => c.split("=")[1]!)]) {
        assert.notInclude(error.message, secret)
        assert.notInclude(JSON.stringify(error), secret)
      }
    })
  )
})
