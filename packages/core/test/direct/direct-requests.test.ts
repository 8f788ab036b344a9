import { assert, describe, it } from "@effect/vitest"
import { Redacted } from "effect"
import { DirectPurchaseError } from "../../src/direct/DirectPurchaseError.ts"
import {
  containsPhrase,
  parsePremium,
  parseStars,
  parseTonTopup,
  parseTransfer
} from "../../src/direct/DirectRequests.ts"

// Placeholder words, not a phrase of any wallet.
const words24 = Array.from({ length: 24 }, (_, i) => ["alpha", "bravo", "delta", "echo"][i % 4]).join(" ")
const words12 = words24.split(" ").slice(0, 12).join(" ")

const reasonOf = (r: unknown) => (r instanceof DirectPurchaseError ? r.reason : "ok")

describe("DirectRequests", () => {
  it("reads TON amounts exactly from JSON numbers and decimal strings, never through float arithmetic", () => {
    const cases: ReadonlyArray<readonly [unknown, bigint]> = [
      [1.1, 1_100_000_000n],
      [0.3, 300_000_000n],
      ["0.000000001", 1n],
      [1e-9, 1n],
      [123456.789, 123_456_789_000_000n]
    ]
    for (const [amount, nano] of cases) {
      const r = parseTransfer({ to: "EQ-anything", amount, seed: words24 })
      assert(!(r instanceof DirectPurchaseError), `amount ${String(amount)}`)
      assert.strictEqual(r.amount, nano)
    }
    assert.strictEqual(reasonOf(parseTransfer({ to: "x", amount: "0.0000000001", seed: words24 })), "InvalidRequest")
    assert.strictEqual(reasonOf(parseTransfer({ to: "x", amount: -1, seed: words24 })), "InvalidRequest")
    assert.strictEqual(reasonOf(parseTransfer({ to: "x", amount: true, seed: words24 })), "InvalidRequest")
  })

  it("checks fields in order and keeps the phrase only in a Redacted", () => {
    const stars = parseStars({ username: "someone", amount: 50, seed: words12, order_id: 42 })
    assert(!(stars instanceof DirectPurchaseError))
    assert.deepStrictEqual([stars.quantity, stars.orderId, String(stars.seed)], [50, "42", "<redacted:mnemonic>"])
    assert.strictEqual(Redacted.value(stars.seed), words12)
    assert.strictEqual(reasonOf(parseStars({ username: "someone", amount: 49 })), "AmountBelowMinimum")
    assert.strictEqual(reasonOf(parseStars({ username: "someone", amount: 1_000_001 })), "AmountAboveMaximum")
    assert.strictEqual(
      reasonOf(parseStars({ username: "so me", amount: 10 })),
      "InvalidRequest",
      "username before amount"
    )
    assert.strictEqual(
      reasonOf(parseStars({ username: "@someone", amount: 10 })),
      "AmountBelowMinimum",
      "a leading @ is accepted, as bots send it"
    )
    assert.strictEqual(reasonOf(parsePremium({ username: "someone", duration: 6, seed: words12 })), "InvalidRequest")
    assert.strictEqual(reasonOf(parsePremium({ username: "someone", duration: 6, seed: words24 })), "ok")
    assert.strictEqual(reasonOf(parseTonTopup({ username: "someone", amount: 2.5, seed: words24 })), "InvalidRequest")
    assert.strictEqual(
      reasonOf(parseTonTopup({ username: "someone", amount: 2, seed: words24, wallet_version: "W5" })),
      "ok"
    )
  })

  it("never lets the phrase into a comment or an order id, and never echoes a field's value", () => {
    const inComment = parseTransfer({ to: "x", amount: 1, seed: words24, comment: `keep: ${words24.toUpperCase()}` })
    assert.strictEqual(reasonOf(inComment), "InvalidRequest")
    assert.isTrue(containsPhrase(`a,${words12.replaceAll(" ", "-")},b`, words12.split(" ")))
    assert.isFalse(containsPhrase("alpha bravo", words12.split(" ")))
    const wrongType = parseStars({ username: "someone", amount: 50, seed: words24.split(" ") })
    assert(wrongType instanceof DirectPurchaseError)
    assert.notInclude(wrongType.message, "alpha")
  })
})
