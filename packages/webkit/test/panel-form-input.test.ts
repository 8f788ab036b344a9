import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { adjustInput, assignInput, type RawInput } from "../src/PanelFormInput.ts"

/**
 * The 422 lists of the panel's two money forms, as their scripts know them. Any new decoder of these
 * forms (a schema in place of the hand rules) must give these lists byte for byte.
 */
const KEY = { "idempotency-key": "panel-key-0001" }
const raw = (params: RawInput["params"], form: RawInput["form"], headers: RawInput["headers"] = KEY): RawInput => ({
  params,
  form,
  headers
})
const refusal = (effect: Effect.Effect<unknown, unknown>) => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isSuccess(exit)) return { ok: exit.value }
  const error = exit.cause.reasons[0] as unknown as { error: { _tag: string; items?: unknown; code?: unknown } }
  return error.error._tag === "PanelInputInvalid" ? { items: error.error.items } : { code: error.error.code }
}
const parsing = (loc: ReadonlyArray<string>, input: unknown) => ({
  type: "int_parsing",
  loc,
  msg: "Input should be a valid integer, unable to parse string as an integer",
  input
})
const user = { user_id: "7" }

describe("balance correction input", () => {
  it("accepts a signed amount (a leading + too), a trimmed reason and a key", () => {
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "+7000", reason: "  fee  " }))), {
      ok: { userId: 7, amount: 7000, reason: "fee", key: "panel-key-0001" }
    } as never)
  })

  it("an empty amount is int_parsing with its text, not missing; an empty reason is the length rule", () => {
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "", reason: "r" }))), {
      items: [parsing(["body", "amount_uzs"], "")]
    })
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "5", reason: "   " }))), {
      items: [{ type: "value_error", loc: ["body", "reason"], msg: "Value error, 1 to 500 characters", input: "" }]
    })
  })

  it("pydantic's lax spellings of an int are refused; the value rules wait for the types", () => {
    for (const text of ["1_000", "5.0", "1e3"])
      assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: text, reason: "r" }))), {
        items: [parsing(["body", "amount_uzs"], text)]
      })
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "x", reason: "" }))), {
      items: [parsing(["body", "amount_uzs"], "x")]
    })
    assert.deepStrictEqual(refusal(adjustInput(raw(user, {}))), {
      items: [
        { type: "missing", loc: ["body", "amount_uzs"], msg: "Field required", input: null },
        { type: "missing", loc: ["body", "reason"], msg: "Field required", input: null }
      ]
    })
  })

  it("zero, a long reason and a malformed key are refused one at a time, in that order", () => {
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "0", reason: "" }))), {
      items: [{ type: "value_error", loc: ["body", "amount_uzs"], msg: "Value error, must not be zero", input: 0 }]
    })
    const long = "x".repeat(5000)
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "1", reason: long }))), {
      items: [{ type: "value_error", loc: ["body", "reason"], msg: "Value error, 1 to 500 characters", input: long }]
    })
    assert.deepStrictEqual(
      refusal(adjustInput(raw(user, { amount_uzs: "1", reason: "r" }, { "idempotency-key": "short" }))),
      {
        items: [{ type: "missing", loc: ["header", "idempotency-key"], msg: "Field required", input: null }]
      }
    )
  })

  it("a path naming no user is a 404 before any field rule", () => {
    assert.deepStrictEqual(refusal(adjustInput(raw({ user_id: "abc" }, {}))), { code: "user_not_found" })
  })
})

describe("payment assignment input", () => {
  it("an empty or odd confirmation is bool_parsing; a bad path id comes after the body, its input null", () => {
    assert.deepStrictEqual(refusal(assignInput(raw({ payment_id: "x" }, { topup_id: "1_0", confirm_duplicate: "" }))), {
      items: [
        parsing(["body", "topup_id"], "1_0"),
        {
          type: "bool_parsing",
          loc: ["body", "confirm_duplicate"],
          msg: "Input should be a valid boolean, unable to interpret input",
          input: ""
        },
        parsing(["path", "payment_id"], null)
      ]
    })
  })

  it("a top-up number that cannot exist is decoded, to be a 404 once signed in", () => {
    const answer = refusal(assignInput(raw({ payment_id: "3" }, { topup_id: "-4", confirm_duplicate: "yes" })))
    assert.deepStrictEqual(answer, {
      ok: { paymentId: 3, topupId: Option.none(), confirmDuplicate: true }
    } as never)
  })
})
