/**
 * The real adapter against the Fragment simulator over loopback: every purchase flow end to end.
 * `it.live`: real sockets and real timers (the adapter's timeouts and backoff use the clock).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { nanotonFromDecimal } from "@resale/core/money/Nanoton.ts"
import type { PaymentRequest } from "@resale/core/ports/Marketplace.ts"
import { parseCommentPayload } from "../src/FragmentPayload.ts"
import { payer, signedBoc, simulated } from "./harness.ts"

const STAR = 9_218_000n

/** The payment must match what the simulator recorded for the invoice, and its own payload. */
const assertMatchesInvoice = (
  payment: PaymentRequest,
  invoice: { readonly ref: string; readonly amount: bigint; readonly comment: string } | undefined
) => {
  assert.isDefined(invoice)
  assert.strictEqual(payment.ref, invoice!.ref)
  assert.strictEqual(payment.amount, invoice!.amount)
  assert.strictEqual(payment.comment, invoice!.comment)
  assert.deepStrictEqual(parseCommentPayload(payment.payload), { comment: payment.comment, ref: payment.ref })
  assert.match(payment.ref, /^[A-Za-z0-9]{9}$/)
  assert.isAbove(payment.validUntil, Date.now() / 1000)
}

describe("Fragment purchase flows", () => {
  it.live("stars: quote, confirm with the signed message, processing, then delivered", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      const payment = yield* market.quoteStars({ username: "@star_buyer", quantity: 1000, payer })
      assert.strictEqual(payment.kind, "stars")
      assert.strictEqual(payment.amount, STAR * 1000n)
      assert.strictEqual(payment.address, sim.walletAddress)
      assert.strictEqual(payment.comment, `1000 Telegram Stars \n\nRef#${payment.ref}`)
      assertMatchesInvoice(payment, sim.control.invoice(payment.reqId))
      assert.deepStrictEqual(
        sim.control.calls().map((c) => c.method),
        ["searchStarsRecipient", "updateStarsBuyState", "initBuyStarsRequest", "getBuyStarsLink"]
      )
      const link = sim.control.calls("getBuyStarsLink")[0]!.fields
      assert.strictEqual(link["transaction"], "1")
      assert.strictEqual(JSON.parse(link["account"]!).address, payer.address)
      assert.strictEqual(JSON.parse(link["account"]!).chain, "-239")

      const first = yield* market.confirm({
        kind: "stars",
        reqId: payment.reqId,
        ref: payment.ref,
        boc: signedBoc,
        payer
      })
      assert.deepStrictEqual(first, {
        _tag: "Pending",
        reqId: payment.reqId,
        ref: payment.ref,
        mode: "processing",
        confirm: "accepted"
      })
      assert.strictEqual(sim.control.invoice(payment.reqId)?.boc, signedBoc)
      const second = yield* market.confirm({ kind: "stars", reqId: payment.reqId, ref: payment.ref, boc: signedBoc })
      assert.deepStrictEqual(second, { _tag: "Delivered", reqId: payment.reqId, ref: payment.ref })
      // the signed message is reported once, however often confirm is asked
      assert.strictEqual(sim.control.calls("confirmReq").length, 1)
      // the state poll carries the same nonce the flow opened
      const opened = sim.control.calls("updateStarsBuyState")[0]!.fields["dh"]
      assert.strictEqual(sim.control.calls("updateStarsBuyState")[1]!.fields["dh"], opened)
    })
  )

  it.live("stars: without a reported payment the invoice stays new", () =>
    Effect.gen(function* () {
      const { market } = yield* simulated()
      const payment = yield* market.quoteStars({ username: "waiting_user", quantity: 50, payer })
      const state = yield* market.confirm({ kind: "stars", reqId: payment.reqId, ref: payment.ref })
      assert.deepStrictEqual(state, {
        _tag: "Pending",
        reqId: payment.reqId,
        ref: payment.ref,
        mode: "new",
        confirm: "unsent"
      })
    })
  )

  for (const [months, words] of [
    [3, "3 months"],
    [6, "6 months"],
    [12, "1 year"]
  ] as const) {
    it.live(`premium ${months} months: comment says "${words}"`, () =>
      Effect.gen(function* () {
        const { sim, market } = yield* simulated({
          prices: { premiumNanoton: { [months]: BigInt(months) * 1_100_000_000n } }
        })
        const payment = yield* market.quotePremium({ username: "gift_me", months, payer })
        assert.strictEqual(payment.kind, "premium")
        assert.strictEqual(payment.comment, `Telegram Premium for ${words} \n\nRef#${payment.ref}`)
        assert.strictEqual(payment.amount, BigInt(months) * 1_100_000_000n)
        assertMatchesInvoice(payment, sim.control.invoice(payment.reqId))
        assert.strictEqual(sim.control.calls("initGiftPremiumRequest")[0]!.fields["months"], String(months))
        yield* market.confirm({ kind: "premium", reqId: payment.reqId, ref: payment.ref, boc: signedBoc })
        const done = yield* market.confirm({ kind: "premium", reqId: payment.reqId, ref: payment.ref })
        assert.strictEqual(done._tag, "Delivered")
      })
    )
  }

  it.live("TON top-up: whole TON, state opened before the search, thousands separators read exactly", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated({ prices: { topupFeeNanoton: 0n } })
      const payment = yield* market.quoteTonTopup({ username: "ton_fan", amount: nanotonFromDecimal("1500"), payer })
      assert.strictEqual(payment.kind, "ton")
      assert.strictEqual(payment.amount, 1_500_000_000_000n)
      assert.strictEqual(payment.comment, `Telegram account top up \n\nRef#${payment.ref}`)
      assertMatchesInvoice(payment, sim.control.invoice(payment.reqId))
      assert.deepStrictEqual(
        sim.control.calls().map((c) => c.method),
        ["updateAdsTopupState", "searchAdsTopupRecipient", "initAdsTopupRequest", "getAdsTopupLink"]
      )
      assert.strictEqual(sim.control.calls("initAdsTopupRequest")[0]!.fields["amount"], "1500")
      sim.control.markPaid(payment.ref)
      const states = [
        yield* market.confirm({ kind: "ton", reqId: payment.reqId, ref: payment.ref }),
        yield* market.confirm({ kind: "ton", reqId: payment.reqId, ref: payment.ref })
      ]
      assert.deepStrictEqual(
        states.map((s) => s._tag),
        ["Pending", "Delivered"]
      )
    })
  )

  it.live("url-safe unpadded payloads from Fragment are read too", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.set({ urlSafePayloads: true })
      const payment = yield* market.quoteStars({ username: "url_safe", quantity: 1_000_000, payer })
      assert.notInclude(payment.payload, "=")
      assertMatchesInvoice(payment, sim.control.invoice(payment.reqId))
      assert.strictEqual(payment.comment, `1000000 Telegram Stars \n\nRef#${payment.ref}`)
    })
  )

  it.live("recipient lookup for each kind, with @ and t.me forms", () =>
    Effect.gen(function* () {
      const { market } = yield* simulated()
      const stars = yield* market.lookupRecipient("stars", "@durov_fan")
      const premium = yield* market.lookupRecipient("premium", "https://t.me/durov_fan")
      const ton = yield* market.lookupRecipient("ton", "durov_fan")
      for (const r of [stars, premium, ton]) {
        assert.strictEqual(r.username, "durov_fan")
        assert.strictEqual(r.name, "Durov_fan")
        assert.match(r.token, /^[0-9a-f]{48}$/)
        assert.include(r.photo ?? "", "<img")
      }
      assert.deepStrictEqual([stars.kind, premium.kind, ton.kind], ["stars", "premium", "ton"])
    })
  )

  it.live("cancel closes the invoice on Fragment", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      const payment = yield* market.quoteStars({ username: "changed_mind", quantity: 75, payer })
      yield* market.cancel("stars", payment.reqId)
      assert.strictEqual(sim.control.invoice(payment.reqId)?.status, "cancelled")
      // the session's page is back at a fresh form: nothing was delivered
      const again = yield* market.confirm({ kind: "stars", reqId: payment.reqId, ref: payment.ref })
      assert.deepStrictEqual(again, {
        _tag: "Pending",
        reqId: payment.reqId,
        ref: payment.ref,
        mode: "new",
        confirm: "unsent"
      })
      // and the session is free for the next purchase at once
      const next = yield* market.quoteStars({ username: "next_buyer", quantity: 50, payer })
      assert.notStrictEqual(next.reqId, payment.reqId)
    })
  )

  it.live("concurrent quotes on one session each get their own invoice, one after another", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated({}, { sessionWait: "20 seconds" })
      // each quote holds the session until its purchase is cancelled (here) or delivered
      const quoteAndRelease = (quantity: number) =>
        market
          .quoteStars({ username: `buyer_${quantity}`, quantity, payer })
          .pipe(Effect.tap((p) => market.cancel("stars", p.reqId)))
      const payments = yield* Effect.all([50, 60, 70, 80].map(quoteAndRelease), { concurrency: "unbounded" })
      assert.strictEqual(new Set(payments.map((p) => p.ref)).size, 4)
      for (const p of payments) {
        const invoice = sim.control.invoice(p.reqId)
        assertMatchesInvoice(p, invoice)
        assert.strictEqual(invoice?.username, `buyer_${invoice?.units}`)
      }
      // never two invoices open at once in the session: each init follows the previous cancel
      const order = sim.control
        .calls()
        .filter((c) => c.method === "initBuyStarsRequest" || c.method === "cancelInvoice")
      assert.deepStrictEqual(
        order.map((c) => c.method),
        Array.from({ length: 4 }, () => ["initBuyStarsRequest", "cancelInvoice"]).flat()
      )
    })
  )
})
