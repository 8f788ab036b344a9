import { assert, describe, it } from "@effect/vitest"
import { translator } from "../../src/i18n/Translate.ts"
import { errorLines } from "../../src/gateway/ErrorText.ts"
import { findForm, formBack } from "../../src/gateway/FormTable.ts"
import { csrfToken, csrfValid, decodeFlash, encodeFlash, type FlashLine } from "../../src/gateway/WebCookies.ts"

const words = (locale: "en" | "ru" | "uz", lines: ReadonlyArray<FlashLine>) =>
  lines.map((line) => ("key" in line ? translator(locale).t(line.key, line.params) : line.text))

describe("API errors in words", () => {
  it("the server's codes become sentences in the reader's language, with the values of their params", () => {
    const insufficient = errorLines(
      409,
      JSON.stringify({
        detail: "Insufficient balance: 23000 UZS required, 1500 UZS available",
        code: "balance_insufficient",
        params: { required_uzs: 23000, balance_uzs: 1500 }
      })
    )
    assert.deepStrictEqual(words("en", insufficient), [
      "Not enough balance: 23,000\u00a0UZS needed, you have 1,500\u00a0UZS."
    ])
    assert.deepStrictEqual(words("uz", insufficient), [
      "Mablag‘ yetarli emas: 23\u00a0000\u00a0so‘m kerak, balansda 1\u00a0500\u00a0so‘m."
    ])
    // The words come from the code, not from the English detail (which may be reworded).
    const state = errorLines(
      409,
      JSON.stringify({
        detail: "reworded",
        code: "topup_transition_invalid",
        params: { from: "paid", to: "cancelled" }
      })
    )
    assert.deepStrictEqual(words("ru", state), [
      "Пополнение уже в статусе «Зачислено», перевести его в «Отменено» нельзя."
    ])
  })

  it("FastAPI's 422 list names each field", () => {
    const body = JSON.stringify({
      detail: [
        { type: "missing", loc: ["body", "username"], msg: "Field required", input: null },
        { type: "int_parsing", loc: ["body", "amount_uzs"], msg: "Input should be a valid integer", input: "abc" },
        { type: "string_too_long", loc: ["body", "mystery"], msg: "too long", input: "x" }
      ]
    })
    assert.deepStrictEqual(words("en", errorLines(422, body)), [
      "Username: please fill this in.",
      "Amount: enter a whole number.",
      "mystery: this value is not valid."
    ])
  })

  it("an unknown code or a detail without a code is shown as the words it is; a body without one by its status; never JSON", () => {
    assert.deepStrictEqual(
      words("en", errorLines(400, JSON.stringify({ detail: "New rule", code: "brand_new_code" }))),
      ["New rule"]
    )
    assert.deepStrictEqual(words("en", errorLines(400, JSON.stringify({ detail: "Something new happened" }))), [
      "Something new happened"
    ])
    assert.deepStrictEqual(words("en", errorLines(500, "")), [
      "Something went wrong on our side. Please try again in a minute."
    ])
    assert.deepStrictEqual(words("en", errorLines(401, "<html>")), ["Please sign in first."])
    for (const line of words("en", errorLines(418, '{"weird":true}'))) assert.notInclude(line, "{")
  })
})

/** The outcome of a successful post to `path` whose call answered `answer`. */
const formSuccess = (path: string, answer: unknown) => {
  const [match, form] = findForm(path)!
  const outcome = form.success(match, answer as never)
  return { next: outcome.next, flash: outcome.flash! }
}

describe("form outcomes", () => {
  it("each form leads to its page with its message", () => {
    const created = formSuccess("/v2/balance/top-up", { topup: { topup_id: 7 }, payable_uzs: 50_003 })
    assert.strictEqual(created.next, "/v2/dashboard#topup-7")
    assert.deepStrictEqual(words("en", created.flash.lines), ["Top-up #7 created. Transfer exactly 50,003\u00a0UZS."])
    const order = formSuccess("/v2/orders/stars", { order: { order_id: 3, price_uzs: 11_500 } })
    assert.strictEqual(order.next, "/v2/orders")
    assert.deepStrictEqual(words("en", order.flash.lines), [
      "Order #3 placed: 11,500\u00a0UZS was taken from your balance."
    ])
    assert.strictEqual(formSuccess("/v2/tickets/12/reply", {}).next, "/v2/tickets/12#conversation")
    assert.strictEqual(formSuccess("/v2/admin/topups/9/reject", {}).next, "/v2/admin/topups")
    assert.strictEqual(formBack("/v2/orders/premium"), "/v2/dashboard#buy-premium")
    assert.strictEqual(formBack("/v2/admin/unknown"), "/v2/admin")
  })
})

describe("web cookies", () => {
  it("a CSRF token fits only the browser cookie it was made for, under the server key", () => {
    const cookie = "A".repeat(32)
    const token = csrfToken("server-key", cookie)
    assert.isTrue(csrfValid("server-key", cookie, token))
    assert.isFalse(csrfValid("server-key", "B".repeat(32), token))
    assert.isFalse(csrfValid("other-key", cookie, token))
    assert.isFalse(csrfValid("server-key", undefined, token))
    assert.isFalse(csrfValid("server-key", cookie, undefined))
    assert.isFalse(csrfValid("server-key", "short", csrfToken("server-key", "short")))
  })

  it("a flash survives the round trip and cannot be forged or altered", () => {
    const flash = { kind: "error" as const, lines: [{ key: "error.csrf" as const }, { text: "plain words" }] }
    const value = encodeFlash("server-key", flash)
    assert.deepStrictEqual(decodeFlash("server-key", value), flash)
    assert.isUndefined(decodeFlash("other-key", value))
    const [body, mac] = value.split(".")
    const altered = Buffer.from(JSON.stringify({ kind: "ok", lines: [{ text: "Call +998 00 000 00 00" }] })).toString(
      "base64url"
    )
    assert.isUndefined(decodeFlash("server-key", `${altered}.${mac}`))
    assert.isDefined(body)
  })
})
