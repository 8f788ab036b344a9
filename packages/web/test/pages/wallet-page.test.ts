/**
 * The wallet page's pieces: the quote as a `ton://transfer` link (exact amount, Fragment's payload
 * byte for byte) and its QR code (plain SVG the page's CSP allows); the order in words for every
 * state, with the ways to pay only while it can be paid; every refusal in words of each language,
 * never the use case's own text.
 */
import { assert, describe, it } from "@effect/vitest"
import { CheckoutRefused } from "@resale/core/direct/WalletCheckout.ts"
import { DirectPurchaseError } from "@resale/core/direct/DirectPurchaseError.ts"
import { nanoton } from "@resale/core/money/Nanoton.ts"
import { WalletQuoteState, type WalletQuote } from "@resale/core/ports/WalletQuotes.ts"
import { checkoutErrorKey } from "../../src/gateway/WalletPages.ts"
import { toString } from "../../src/Html.ts"
import { LOCALES } from "../../src/i18n/Locale.ts"
import { DICTIONARIES, translator } from "../../src/i18n/Translate.ts"
import type { PageContext } from "../../src/layout/PageContext.ts"
import { qrSvg, tonTransferLink } from "../../src/pages/TonTransfer.ts"
import { walletOrderPage } from "../../src/pages/WalletPage.ts"

// A comment cell (op 0, "Telegram Stars Ref#...") as base64 with the characters base64url replaces.
const PAYLOAD = "te6ccgEBAQEAJwAASgAAAABUZWxlZ3JhbSBTdGFycyAKClJlZiNhYj8+Pz4/Pg=="

const quote = (state: WalletQuote["state"]): WalletQuote => ({
  id: 1,
  orderId: "web-1",
  network: "sandbox",
  walletAddress: `0:${"12".repeat(32)}`,
  account: { address: `0:${"12".repeat(32)}`, publicKey: "ab".repeat(32), walletStateInit: "te6cc" },
  kind: "stars",
  fingerprint: "f",
  recipient: "someone",
  units: 50,
  amount: null,
  reqId: "r",
  ref: "ab",
  payTo: "UQBaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWgYv",
  payAmount: nanoton(460_900_000n),
  payload: PAYLOAD,
  validUntil: 1_900_000_000,
  state,
  boc: null,
  confirm: "unsent",
  txHash: null,
  paidAt: null,
  note: "an English note only operators read",
  createdAt: new Date(0),
  updatedAt: new Date(0),
  settledAt: null
})

const ctx = (locale: (typeof LOCALES)[number], sandbox = false): PageContext => ({
  tr: translator(locale),
  sandbox,
  csrf: "c",
  flash: undefined,
  path: "/v2/wallet/order",
  area: "public",
  signedIn: false,
  assetVersion: "1"
})

describe("the payment link and its QR code", () => {
  it("carries the quote's address, exact amount and payload byte for byte (base64url)", () => {
    const link = tonTransferLink(quote("awaiting_payment"))
    const url = new URL(link)
    assert.strictEqual(url.protocol, "ton:")
    assert.strictEqual(`${url.host}${url.pathname}`, `transfer/${quote("awaiting_payment").payTo}`)
    assert.strictEqual(url.searchParams.get("amount"), "460900000")
    const bin = url.searchParams.get("bin") ?? ""
    assert.match(bin, /^[A-Za-z0-9_-]+$/)
    assert.strictEqual(Buffer.from(bin, "base64url").toString("base64"), PAYLOAD)
  })

  it("is an SVG without inline style or script (the page's CSP allows neither)", () => {
    const svg = qrSvg(tonTransferLink(quote("awaiting_payment")))
    assert.match(svg, /^<svg [^>]*viewBox=/)
    assert.notMatch(svg, /style=|<script|on[a-z]+=/i)
  })
})

describe("the order's page", () => {
  for (const state of WalletQuoteState.literals) {
    it(`${state}: in words in every language; the ways to pay only while it can be paid`, () => {
      for (const locale of LOCALES) {
        const page = toString(
          walletOrderPage(ctx(locale, true), { quote: quote(state), address: "a", sandboxWallet: "w" })
        )
        assert.include(page, DICTIONARIES[locale][`wallet.state.${state}`])
        assert.notInclude(page, "an English note only operators read")
        const payable = state === "awaiting_payment"
        assert.strictEqual(page.includes("ton://transfer/"), payable, `${locale} ${state}`)
        assert.strictEqual(page.includes("/v2/wallet/sandbox-pay"), payable)
        // followed until final
        assert.strictEqual(page.includes("data-wallet-follow"), state === "awaiting_payment" || state === "paid")
      }
    })
  }

  it("has no sandbox button outside the sandbox", () => {
    const page = toString(
      walletOrderPage(ctx("en"), { quote: quote("awaiting_payment"), address: "a", sandboxWallet: "w" })
    )
    assert.notInclude(page, "/v2/wallet/sandbox-pay")
  })
})

describe("refusals in words", () => {
  it("every reason has its sentence in each language, never the error's own text", () => {
    const errors = [
      ...CheckoutRefused.fields.reason.literals.map((reason) => new CheckoutRefused({ reason })),
      ...DirectPurchaseError.fields.reason.literals.map(
        (reason) => new DirectPurchaseError({ reason, message: `raw ${reason} text` })
      )
    ]
    for (const error of errors) {
      const key = checkoutErrorKey(error)
      assert.match(key, /^wallet\.error\./)
      for (const locale of LOCALES) {
        const text = translator(locale).t(key)
        assert.notInclude(text, error.reason)
        assert.notInclude(text, "raw ")
      }
    }
  })
})
