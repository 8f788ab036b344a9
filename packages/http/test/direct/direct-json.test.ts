import { assert, describe, it } from "@effect/vitest"
import { type Nanoton, nanoton, parseNanoton, parseNanotonNumber } from "@resale/core/money/Nanoton.ts"
import fc from "fast-check"
import { answerJson, tonAmount } from "../../src/direct/DirectJson.ts"

/** The exact decimal of n / 10^9, digit by digit: the text an answer must carry. */
const decimalOf = (n: bigint): string => {
  const digits = n.toString().padStart(10, "0")
  const whole = digits.slice(0, -9).replace(/^0+(?=\d)/, "")
  const frac = digits.slice(-9).replace(/0+$/, "")
  return frac === "" ? whole : `${whole}.${frac}`
}

const nanotons = fc.bigInt({ min: 0n, max: 10n ** 18n }).map((n) => n as Nanoton)

describe("DirectJson", () => {
  it("writes the reported amounts to the nanoton", () => {
    assert.strictEqual(answerJson({ cost: tonAmount(nanoton(466_420_801n)) }), `{"cost":0.466420801}`)
    assert.strictEqual(answerJson({ fee: tonAmount(nanoton(1n)) }), `{"fee":0.000000001}`)
    assert.strictEqual(answerJson({ cost: tonAmount(nanoton(0n)) }), `{"cost":0}`)
    assert.strictEqual(
      answerJson({ amount: tonAmount(nanoton(123_456_789_123_456_789n)) }),
      `{"amount":123456789.123456789}`
    )
    assert.strictEqual(
      (JSON.parse(answerJson({ cost: tonAmount(nanoton(466_420_801n)) })) as { cost: number }).cost,
      0.466420801
    )
  })

  it("property: every nanoton up to 10^18 is written as its exact decimal, a JSON number", () => {
    fc.assert(
      fc.property(nanotons, (n) => {
        const text = answerJson({ ok: true, cost: tonAmount(n) })
        assert.strictEqual(text, `{"ok":true,"cost":${decimalOf(n)}}`)
        assert.strictEqual(parseNanoton(decimalOf(n)), n)
        const parsed = JSON.parse(text) as { cost: unknown }
        assert.strictEqual(typeof parsed.cost, "number")
        // A JS client's number is the nearest double: exactly n again up to 15 significant digits.
        if (n < 10n ** 15n) assert.strictEqual(parseNanotonNumber(parsed.cost as number), n)
      }),
      { numRuns: 2_000 }
    )
  })

  it("property: without amounts it writes what JSON.stringify writes", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.strictEqual(answerJson(value), JSON.stringify(value))
      })
    )
    const withAmount = { ok: true, balance: tonAmount(nanoton(5n)), addresses: { v4r2: "UQ..", v5r1: "UQ.." } }
    assert.strictEqual(
      JSON.stringify(withAmount),
      `{"ok":true,"balance":5e-9,"addresses":{"v4r2":"UQ..","v5r1":"UQ.."}}`
    )
    assert.strictEqual(
      answerJson(withAmount),
      `{"ok":true,"balance":0.000000005,"addresses":{"v4r2":"UQ..","v5r1":"UQ.."}}`
    )
  })
})
