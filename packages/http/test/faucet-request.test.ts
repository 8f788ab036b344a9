import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { parseFaucetRequest } from "../src/sandbox/FaucetRequest.ts"

/**
 * The sandbox faucet's body (`POST /v2/api/admin/sandbox/fund`) and its 422 records, as the CLI and
 * scripts know them: every invalid part at once, the amount read exactly from its decimal text.
 */
const checkAddress = (address: string) =>
  address.startsWith("EQ") ? Effect.succeed(address.toUpperCase()) : Effect.fail({ message: "Invalid address" })
const parse = (text: string) => Effect.runSync(parseFaucetRequest(text, checkAddress))
const body = (value: unknown) => parse(JSON.stringify(value))
const detail = (text: string) => {
  const parsed = parse(text)
  return parsed._tag === "Invalid" ? parsed.detail : parsed
}
const amountDetail = (amount_ton: unknown) => detail(JSON.stringify({ address: "EQa", amount_ton }))
const loc = ["body", "amount_ton"]
const greaterThan = (input: unknown) => [
  { type: "greater_than", loc, msg: "Input should be greater than 0", input, ctx: { gt: 0 } }
]

describe("sandbox faucet request", () => {
  it("reads the address through the chain's check (trimmed) and the amount exactly, from text or a number", () => {
    assert.deepStrictEqual(body({ address: " EQabc ", amount_ton: "1.5" }), {
      _tag: "Valid",
      request: { address: "EQABC", amount: 1_500_000_000n as never }
    })
    for (const [amount, nano] of [
      [0.1, 100_000_000n],
      [1e-9, 1n],
      [" +2 ", 2_000_000_000n],
      ["1000000000", 1_000_000_000_000_000_000n],
      [".5", 500_000_000n]
    ] as const) {
      const parsed = body({ address: "EQa", amount_ton: amount })
      assert.deepStrictEqual(parsed._tag === "Valid" ? parsed.request.amount : parsed, nano as never, String(amount))
    }
  })

  it("a body that is no JSON object is refused as FastAPI refuses it", () => {
    for (const text of ["", "  \n"])
      assert.deepStrictEqual(detail(text), [{ type: "missing", loc: ["body"], msg: "Field required", input: null }])
    assert.deepStrictEqual(detail('{"address": '), [
      { type: "json_invalid", loc: ["body", 0], msg: "JSON decode error", input: {}, ctx: { error: "Expecting value" } }
    ])
    for (const value of [[1], null, 3, "text"])
      assert.deepStrictEqual(detail(JSON.stringify(value)), [
        {
          type: "model_attributes_type",
          loc: ["body"],
          msg: "Input should be a valid dictionary or object to extract fields from",
          input: value
        }
      ])
  })

  it("every invalid field at once: missing (with the whole body), wrong types, the chain's refusal", () => {
    assert.deepStrictEqual(detail("{}"), [
      { type: "missing", loc: ["body", "address"], msg: "Field required", input: {} },
      { type: "missing", loc: ["body", "amount_ton"], msg: "Field required", input: {} }
    ])
    assert.deepStrictEqual(detail(JSON.stringify({ address: 5, amount_ton: true })), [
      { type: "string_type", loc: ["body", "address"], msg: "Input should be a valid string", input: 5 },
      {
        type: "decimal_type",
        loc,
        msg: "Decimal input should be an integer, float, string or Decimal object",
        input: true
      }
    ])
    assert.deepStrictEqual(detail(JSON.stringify({ address: " bad ", amount_ton: "1.0000000001", extra: 1 })), [
      {
        type: "value_error",
        loc: ["body", "address"],
        msg: "Value error, Invalid address",
        input: " bad ",
        ctx: { error: {} }
      },
      {
        type: "decimal_max_places",
        loc,
        msg: "Decimal input should have no more than 9 decimal places",
        input: "1.0000000001",
        ctx: { decimal_places: 9 }
      }
    ])
    const partial = { amount_ton: null }
    assert.deepStrictEqual(detail(JSON.stringify(partial)), [
      { type: "missing", loc: ["body", "address"], msg: "Field required", input: partial },
      {
        type: "decimal_type",
        loc,
        msg: "Decimal input should be an integer, float, string or Decimal object",
        input: null
      }
    ])
  })

  it("the amount is above 0, at most 10^9 TON, a decimal", () => {
    for (const amount of ["-1", -1, "0", 0, "0.0000000000"]) {
      const expected = amount === "0.0000000000" ? "decimal_max_places" : "greater_than"
      const answer = amountDetail(amount) as ReadonlyArray<{ type: string }>
      assert.strictEqual(answer[0]?.type, expected, String(amount))
    }
    assert.deepStrictEqual(amountDetail(-1), greaterThan(-1))
    assert.deepStrictEqual(amountDetail("0"), greaterThan("0"))
    for (const amount of ["1000000000.000000001", 2e9])
      assert.deepStrictEqual(amountDetail(amount), [
        {
          type: "less_than_equal",
          loc,
          msg: "Input should be less than or equal to 1000000000",
          input: amount,
          ctx: { le: 1_000_000_000 }
        }
      ])
    // Past what any amount can hold, or not a plain decimal: not a decimal at all.
    for (const amount of ["abc", "1e3", "10000000000", 1e21, "", "1.2.3"])
      assert.deepStrictEqual(amountDetail(amount), [
        { type: "decimal_parsing", loc, msg: "Input should be a valid decimal", input: amount }
      ])
  })
})
