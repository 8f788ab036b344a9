/**
 * Every Fragment failure reaches callers as one MarketplaceError with a precise reason,
 * produced by the real adapter against the simulator's real answers.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { nanotonFromDecimal } from "@resale/core/money/Nanoton.ts"
import { makeFragmentMarketplace } from "../src/FragmentMarketplace.ts"
import { cleanFragmentText, reasonOfFragmentError } from "../src/FragmentErrors.ts"
import { payer, signedBoc, simulated } from "./harness.ts"

describe("Fragment error texts", () => {
  it("maps each known text to its reason", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["No Telegram users found.", "RecipientNotFound"],
      ["Please enter a username assigned to a user.", "RecipientNotFound"],
      ["This account is already subscribed to Telegram Premium.", "AlreadySubscribed"],
      ["Access denied", "SessionExpired"],
      ["Session expired. Please reconnect your wallet", "SessionExpired"],
      ["Please verify your account to continue", "NeedVerify"],
      ["Invalid method", "Unavailable"],
      ["You can&#39;t gift Telegram Stars to this account at this moment.", "Rejected"],
      ["Price was changed. Please try again.", "Rejected"]
    ]
    for (const [text, reason] of cases) assert.strictEqual(reasonOfFragmentError(text), reason, text)
  })

  it("unescapes HTML and strips tags for messages", () => {
    assert.strictEqual(cleanFragmentText("You can&#39;t <b>gift</b>\n now"), "You can't gift now")
    assert.strictEqual(cleanFragmentText("x".repeat(500)).length, 200)
  })
})

describe("Fragment failures through the adapter", () => {
  it.live("unknown users and non-users are RecipientNotFound", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.unknownUser("ghost_user")
      sim.control.nonUser("some_channel")
      const ghost = yield* Effect.flip(market.quoteStars({ username: "ghost_user", quantity: 50, payer }))
      const channel = yield* Effect.flip(market.lookupRecipient("premium", "@some_channel"))
      const junk = yield* Effect.flip(market.lookupRecipient("stars", "not a name!"))
      assert.deepStrictEqual(
        [ghost.reason, channel.reason, junk.reason],
        ["RecipientNotFound", "RecipientNotFound", "RecipientNotFound"]
      )
      assert.strictEqual(ghost.message, "Fragment searchStarsRecipient: No Telegram users found.")
      // an invalid username never reaches Fragment
      assert.strictEqual(sim.control.calls("searchStarsRecipient").length, 1)
      assert.strictEqual(sim.control.invoices().length, 0)
    })
  )

  it.live("a premium recipient who already has Premium is AlreadySubscribed", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.subscribed("has_premium")
      const error = yield* Effect.flip(market.quotePremium({ username: "has_premium", months: 6, payer }))
      assert.strictEqual(error.reason, "AlreadySubscribed")
      assert.include(error.message, "already subscribed")
    })
  )

  it.live("need_verify is NeedVerify and the opened invoice is cancelled", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.set({ needVerify: true })
      const error = yield* Effect.flip(market.quoteStars({ username: "kyc_needed", quantity: 50, payer }))
      assert.strictEqual(error.reason, "NeedVerify")
      const [invoice] = sim.control.invoices()
      assert.strictEqual(invoice?.status, "cancelled")
      assert.strictEqual(sim.control.calls("cancelInvoice")[0]?.fields["req_id"], invoice?.reqId)
    })
  )

  it.live("Access denied and foreign cookies are SessionExpired", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.set({ sessionExpired: true })
      const denied = yield* Effect.flip(market.quoteStars({ username: "any_user", quantity: 50, payer }))
      assert.strictEqual(denied.reason, "SessionExpired")

      // cookies another Fragment issued: the page hands out an anonymous session whose hash we cannot use
      const stranger = yield* simulated()
      const other = yield* makeFragmentMarketplace({
        ...stranger.sim.fragmentOptions(),
        cookies: Redacted.make(sim.cookies)
      })
      const foreign = yield* Effect.flip(other.lookupRecipient("stars", "any_user"))
      assert.strictEqual(foreign.reason, "SessionExpired")
      assert.strictEqual(stranger.sim.control.pageLoads().length, 2)
    })
  )

  it.live("a session without stel_ton_token may search but not buy", () =>
    Effect.gen(function* () {
      const { sim } = yield* simulated()
      const cookies = sim.cookies.replace(/stel_ton_token=[0-9a-f]+/, "stel_ton_token=0000")
      const market = yield* makeFragmentMarketplace({ ...sim.fragmentOptions(), cookies: Redacted.make(cookies) })
      const found = yield* market.lookupRecipient("stars", "searchable")
      assert.strictEqual(found.username, "searchable")
      const error = yield* Effect.flip(market.quoteStars({ username: "searchable", quantity: 50, payer }))
      assert.strictEqual(error.reason, "SessionExpired")
      assert.strictEqual(error.message, "Fragment initBuyStarsRequest: Access denied")
    })
  )

  it.live("refusals are Rejected: cannot gift, price changed, bad quantity, fractional TON, bad payer", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.cannotGift("no_gifts")
      const cannot = yield* Effect.flip(market.quoteStars({ username: "no_gifts", quantity: 50, payer }))
      assert.strictEqual(cannot.reason, "Rejected")
      assert.include(cannot.message, "can't gift")
      sim.control.set({ priceChanged: true })
      const changed = yield* Effect.flip(market.quotePremium({ username: "price_moves", months: 3, payer }))
      assert.strictEqual(changed.reason, "Rejected")
      sim.control.set({ priceChanged: false })
      const before = sim.control.calls().length
      const tooFew = yield* Effect.flip(market.quoteStars({ username: "few_stars", quantity: 49, payer }))
      const fraction = yield* Effect.flip(
        market.quoteTonTopup({ username: "ton_fan", amount: nanotonFromDecimal("1.5"), payer })
      )
      const badPayer = yield* Effect.flip(
        market.quoteStars({ username: "ton_fan", quantity: 50, payer: { ...payer, address: "EQ-friendly" } })
      )
      assert.deepStrictEqual([tooFew.reason, fraction.reason, badPayer.reason], ["Rejected", "Rejected", "Rejected"])
      // refused locally, before any call
      assert.strictEqual(sim.control.calls().length, before)
    })
  )

  it.live("a failed confirmReq does not fail confirm; delivery still follows the state", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      const payment = yield* market.quoteStars({ username: "confirm_fails", quantity: 50, payer })
      sim.control.set({ confirmError: true })
      const first = yield* market.confirm({ kind: "stars", reqId: payment.reqId, ref: payment.ref, boc: signedBoc })
      // Fragment's refusal is recorded as this invoice's evidence
      assert.deepStrictEqual(first, {
        _tag: "Pending",
        reqId: payment.reqId,
        ref: payment.ref,
        mode: "new",
        confirm: "refused"
      })
      sim.control.markPaid(payment.ref)
      const second = yield* market.confirm({ kind: "stars", reqId: payment.reqId, ref: payment.ref, boc: signedBoc })
      const third = yield* market.confirm({ kind: "stars", reqId: payment.reqId, ref: payment.ref })
      assert.deepStrictEqual([second._tag, third._tag], ["Pending", "Delivered"])
      // retried because the first report failed
      assert.strictEqual(sim.control.calls("confirmReq").length, 2)
    })
  )

  it.live("a never-finishing purchase stays Pending in processing", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.set({ neverFinish: true })
      const payment = yield* market.quoteStars({ username: "stuck_order", quantity: 50, payer })
      const states = yield* Effect.forEach([1, 2, 3, 4], () =>
        market.confirm({ kind: "stars", reqId: payment.reqId, ref: payment.ref, boc: signedBoc })
      )
      assert.deepStrictEqual(
        states.map((s) => (s._tag === "Pending" ? s.mode : "delivered")),
        ["processing", "processing", "processing", "processing"]
      )
    })
  )
})
