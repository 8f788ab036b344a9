import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import {
  formatTon,
  nanoton,
  nanotonFromDecimal,
  NanotonParseError,
  parseNanoton,
  parseNanotonNumber
} from "../src/money/Nanoton.ts"
import { credit, debit, uzs } from "../src/money/Uzs.ts"

describe("Nanoton", () => {
  it("parses decimal TON text exactly", () => {
    assert.strictEqual(nanotonFromDecimal("1.5"), 1_500_000_000n)
    assert.strictEqual(nanotonFromDecimal("0.000000001"), 1n)
    assert.strictEqual(nanotonFromDecimal("12"), 12_000_000_000n)
    assert.strictEqual(nanotonFromDecimal(".25"), 250_000_000n)
    assert.strictEqual(nanotonFromDecimal("3."), 3_000_000_000n)
    // 0.1 + 0.2 in floats is 0.30000000000000004; from text it is exact
    assert.strictEqual(nanotonFromDecimal("0.3"), 300_000_000n)
    assert.strictEqual(nanotonFromDecimal("123456789.123456789"), 123_456_789_123_456_789n)
  })

  it("rejects negatives, more than 9 decimals and junk", () => {
    const reasonOf = (text: string) => {
      const r = parseNanoton(text)
      return r instanceof NanotonParseError ? r.reason : "ok"
    }
    assert.strictEqual(reasonOf("-1"), "Negative")
    assert.strictEqual(reasonOf("0.0000000001"), "TooManyDecimals")
    assert.strictEqual(reasonOf("1e9"), "Malformed")
    assert.strictEqual(reasonOf("abc"), "Malformed")
    assert.strictEqual(reasonOf(""), "Malformed")
    assert.strictEqual(reasonOf("1.2.3"), "Malformed")
    assert.strictEqual(reasonOf("99999999999999999999"), "TooLarge")
    assert.throws(() => nanotonFromDecimal("-0.5"))
  })

  it("converts JSON numbers through their decimal text, exponent notation included", () => {
    assert.strictEqual<unknown>(parseNanotonNumber(1.5), 1_500_000_000n)
    assert.strictEqual<unknown>(parseNanotonNumber(1e-9), 1n)
    assert.strictEqual<unknown>(parseNanotonNumber(0.1), 100_000_000n)
    assert.strictEqual<unknown>(parseNanotonNumber(2.5e3), 2_500_000_000_000n)
    assert.strictEqual<unknown>(parseNanotonNumber(1.25e-7), 125n)
    assert.instanceOf(parseNanotonNumber(1e21), NanotonParseError)
    assert.instanceOf(parseNanotonNumber(Number.NaN), NanotonParseError)
    assert.instanceOf(parseNanotonNumber(1e-10), NanotonParseError)
  })

  it("formats without trailing zeros", () => {
    assert.strictEqual(formatTon(nanoton(1_500_000_000n)), "1.5")
    assert.strictEqual(formatTon(nanoton(0n)), "0")
    assert.strictEqual(formatTon(nanoton(1n)), "0.000000001")
    assert.strictEqual(formatTon(nanoton(10_000_000_000n)), "10")
  })

  it("property: format(parse(x)) == canonical x, parse(format(n)) == n", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 18n }), (n) => {
        assert.strictEqual(nanotonFromDecimal(formatTon(n)), n)
      })
    )
    const decimalText = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.stringMatching(/^\d{0,9}$/))
      .map(([whole, frac]) => (frac === "" ? `${whole}` : `${whole}.${frac}`))
    fc.assert(
      fc.property(decimalText, (text) => {
        const canonical = text.includes(".") ? text.replace(/\.?0+$/, "") : text
        assert.strictEqual(formatTon(nanotonFromDecimal(text)), canonical === "" ? "0" : canonical)
      })
    )
  })
})

describe("Uzs", () => {
  it("accepts only non-negative safe integers", () => {
    assert.strictEqual(uzs(1000), 1000)
    assert.throws(() => uzs(-1))
    assert.throws(() => uzs(1.5))
    assert.throws(() => uzs(Number.MAX_SAFE_INTEGER + 1))
  })

  it("turns amounts into signed ledger movements", () => {
    assert.strictEqual(credit(uzs(700)), 700)
    assert.strictEqual(debit(uzs(700)), -700)
    assert.strictEqual(Object.is(debit(uzs(0)), 0), true)
  })
})
