/**
 * A failed order's reason on the shopper's pages: a sentence in the page's language chosen by its
 * code, for every reason the marketplace or the gift sender can fail with, and never the worker's text.
 */
import { assert, describe, it } from "@effect/vitest"
import { failureCode, gaveUp, giftFailure, marketplaceFailure, OrderFailureCode, operatorRefund } from "@resale/core"
import { GiftSenderErrorReason, MarketplaceErrorReason } from "@resale/core/ports"
import type * as Dto from "@resale/wire/Dtos.ts"
import { escape, toString } from "../../src/Html.ts"
import { LOCALES } from "../../src/i18n/Locale.ts"
import { DICTIONARIES, translator } from "../../src/i18n/Translate.ts"
import { failureKey, ordersTable, paymentUrl } from "../../src/pages/OrderViews.ts"

const order = (status: (typeof Dto.Order.Type)["status"], error: string | null): typeof Dto.Order.Type => ({
  order_id: 9,
  user_id: 1,
  kind: "stars",
  username: "someone",
  stars: 50,
  duration: null,
  months: null,
  gift_id: null,
  price_uzs: 11500,
  status,
  tx_id: null,
  error,
  error_code: failureCode(error),
  delivery: null,
  fragment_ref: null,
  created_at: "2025-01-01T10:00:00.000Z"
})

/** Every text a failed order can carry today, with the foreign message each reason comes with. */
const failures: ReadonlyArray<string> = [
  ...MarketplaceErrorReason.literals.map((r) => marketplaceFailure(r, `Fragment searchStarsRecipient: ${r} x`)),
  ...MarketplaceErrorReason.literals.map((r) => gaveUp(3, marketplaceFailure(r, "Fragment search timed out"))),
  ...GiftSenderErrorReason.literals.map((r) => giftFailure(r, `Telegram said ${r}`)),
  operatorRefund("checked the chain"),
  "hot wallet: WalletNotFound: no funded wallet",
  "gave up after 8 attempts: Not paid"
]

/** How each language says the balance came back. */
const REFUNDED = { en: "refunded", ru: "вернул", uz: "qaytar" } as const

describe("failure reasons on the shopper's orders", () => {
  it("every code has a sentence in every language that says the balance was refunded", () => {
    for (const locale of LOCALES)
      for (const code of OrderFailureCode.literals) {
        const sentence = DICTIONARIES[locale][failureKey(code)]
        assert.include(sentence, REFUNDED[locale], `${locale} ${code}`)
        assert.notMatch(sentence, /Fragment|Marketplace|search/i, `${locale} ${code}`)
      }
  })

  it("each failure reads as its code's sentence, without the worker's text", () => {
    for (const locale of LOCALES) {
      const tr = translator(locale)
      for (const error of failures) {
        const shown = toString(ordersTable(tr, [order("failed", error)], {}))
        const code = failureCode(error) ?? "unknown"
        assert.include(shown, escape(tr.t(failureKey(code))), `${locale}: ${error}`)
        assert.include(shown, `data-order-failure="${code}"`)
        for (const raw of [
          "MarketplaceRejected",
          "Fragment",
          "gift not sent",
          "gave up",
          "hot wallet",
          "by an operator",
          "attempts"
        ])
          assert.notInclude(shown, raw, `${locale}: ${error}`)
      }
    }
  })

  it("the codes a shopper meets most are told apart", () => {
    const tr = translator("en")
    const said = (error: string) => toString(ordersTable(tr, [order("failed", error)], {}))
    assert.include(said(marketplaceFailure("RecipientNotFound", "x")), "No Telegram user has this username")
    assert.include(said(marketplaceFailure("AlreadySubscribed", "x")), "already has Telegram Premium")
    assert.include(said(gaveUp(8, marketplaceFailure("Timeout", "x"))), "did not answer in time")
    assert.include(said(giftFailure("Rejected", "x")), "does not accept gifts")
    assert.include(said(giftFailure("GiftUnavailable", "x")), "sold out")
    assert.include(said("something new"), "Something went wrong on our side")
  })

  it("a queued order missed once says it is tried again; a delivered one says nothing", () => {
    const tr = translator("ru")
    const queued = toString(ordersTable(tr, [order("queued", marketplaceFailure("Timeout", "slow"))], {}))
    assert.include(queued, tr.t("orders.retrying"))
    assert.notInclude(queued, "slow")
    const done = toString(ordersTable(tr, [order("completed", null)], {}))
    assert.include(done, 'data-order-failure=""></span>')
  })

  it("a completed order links its payment where an explorer shows the chain; sent on evidence, it says so", () => {
    const tr = translator("en")
    const hash = "ab".repeat(32)
    const paid = {
      ...order("completed", null),
      tx_id: hash,
      delivery: "paid_unconfirmed",
      fragment_ref: "kpJ55h3BW"
    } as const
    const linked = toString(ordersTable(tr, [paid], {}, { explorer: "https://tonviewer.com" }))
    assert.include(linked, `href="https://tonviewer.com/transaction/${hash}"`)
    assert.include(linked, "Sent: paid on chain, reference Ref#kpJ55h3BW.")
    // the sandbox's emulated chain has no public explorer; an operator's mark-done reference is no tx hash
    assert.notInclude(toString(ordersTable(tr, [paid], {})), "data-order-payment")
    assert.isNull(paymentUrl("https://tonviewer.com", "checked on Fragment"))
    const confirmed = { ...paid, delivery: "confirmed" } as const
    const plain = toString(ordersTable(tr, [confirmed], {}, { explorer: "https://tonviewer.com" }))
    assert.include(plain, "data-order-payment")
    assert.notInclude(plain, "Sent: paid on chain")
  })
})
