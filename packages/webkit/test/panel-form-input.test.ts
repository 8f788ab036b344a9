import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { adjustInput, assignInput, type RawInput } from "../src/PanelFormInput.ts"

/**
 * The 422 lists of the panel's two money forms: their schemas (`AdjustForm`, `AssignForm`) checked
 * by the contract's validator, so FastAPI's answers (every field at once, an empty value missing,
 * pydantic's lax ints), then the rules a schema cannot say (the path's user, the one-time key).
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
const missing = (loc: ReadonlyArray<string>) => ({ type: "missing", loc, msg: "Field required", input: null })
const valueError = (loc: ReadonlyArray<string>, msg: string, input: unknown) => ({
  type: "value_error",
  loc,
  msg: `Value error, ${msg}`,
  input,
  ctx: { error: {} }
})
const user = { user_id: "7" }

describe("balance correction input", () => {
  it("accepts a signed amount (a leading + too), a trimmed reason and a key", () => {
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "+7000", reason: "  fee  " }))), {
      ok: { userId: 7, amount: 7000, reason: "fee", key: "panel-key-0001" }
    } as never)
  })

  it("an empty amount is missing, as FastAPI says of an empty form value; a blank reason is the reason's rule", () => {
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "", reason: "r" }))), {
      items: [missing(["body", "amount_uzs"])]
    })
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "5", reason: "   " }))), {
      items: [valueError(["body", "reason"], "1 to 500 characters", "   ")]
    })
  })

  it("pydantic's lax spellings of an int are accepted, others refused; every field is reported at once", () => {
    for (const [text, amount] of [
      ["1_000", 1000],
      ["5.0", 5]
    ] as const)
      assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: text, reason: "r" }))), {
        ok: { userId: 7, amount, reason: "r", key: "panel-key-0001" }
      } as never)
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "1e3", reason: "r" }))), {
      items: [parsing(["body", "amount_uzs"], "1e3")]
    })
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "x", reason: "" }))), {
      items: [parsing(["body", "amount_uzs"], "x"), missing(["body", "reason"])]
    })
    assert.deepStrictEqual(refusal(adjustInput(raw(user, {}))), {
      items: [missing(["body", "amount_uzs"]), missing(["body", "reason"])]
    })
  })

  it("zero and a blank reason are refused together; a long reason is string_too_long; a malformed key after the fields", () => {
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "0", reason: " " }))), {
      items: [
        valueError(["body", "amount_uzs"], "must not be zero", "0"),
        valueError(["body", "reason"], "1 to 500 characters", " ")
      ]
    })
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "1", reason: "x".repeat(501) }))), {
      items: [
        {
          type: "string_too_long",
          loc: ["body", "reason"],
          msg: "String should have at most 500 characters",
          input: null,
          ctx: { max_length: 500 }
        }
      ]
    })
    assert.deepStrictEqual(
      refusal(adjustInput(raw(user, { amount_uzs: "1", reason: "r" }, { "idempotency-key": "short" }))),
      { items: [missing(["header", "idempotency-key"])] }
    )
    assert.deepStrictEqual(refusal(adjustInput(raw(user, { amount_uzs: "0", reason: "r" }, {}))), {
      items: [valueError(["body", "amount_uzs"], "must not be zero", "0")]
    })
  })

  it("a path naming no user is a 404 once the fields are valid, before the key", () => {
    assert.deepStrictEqual(refusal(adjustInput(raw({ user_id: "abc" }, {}))), {
      items: [missing(["body", "amount_uzs"]), missing(["body", "reason"])]
    })
    for (const id of ["abc", "0", "-3"])
      assert.deepStrictEqual(refusal(adjustInput(raw({ user_id: id }, { amount_uzs: "1", reason: "r" }, {}))), {
        code: "user_not_found"
      })
  })
})

describe("payment assignment input", () => {
  it("the path's error comes first, with its text; then every refused field", () => {
    assert.deepStrictEqual(
      refusal(assignInput(raw({ payment_id: "x" }, { topup_id: "1.5", confirm_duplicate: "maybe" }))),
      {
        items: [
          parsing(["path", "payment_id"], "x"),
          parsing(["body", "topup_id"], "1.5"),
          {
            type: "bool_parsing",
            loc: ["body", "confirm_duplicate"],
            msg: "Input should be a valid boolean, unable to interpret input",
            input: "maybe"
          }
        ]
      }
    )
    assert.deepStrictEqual(refusal(assignInput(raw({ payment_id: "0" }, { topup_id: "" }))), {
      items: [
        {
          type: "greater_than",
          loc: ["path", "payment_id"],
          msg: "Input should be greater than 0",
          input: "0",
          ctx: { gt: 0 }
        },
        missing(["body", "topup_id"])
      ]
    })
  })

  it("an empty confirmation is false, pydantic's lax int is read", () => {
    assert.deepStrictEqual(refusal(assignInput(raw({ payment_id: "3" }, { topup_id: "1_0", confirm_duplicate: "" }))), {
      ok: { paymentId: 3, topupId: Option.some(10), confirmDuplicate: false }
    } as never)
  })

  it("a top-up number that cannot exist is decoded, to be a 404 once signed in", () => {
    const answer = refusal(assignInput(raw({ payment_id: "3" }, { topup_id: "-4", confirm_duplicate: "yes" })))
    assert.deepStrictEqual(answer, {
      ok: { paymentId: 3, topupId: Option.none(), confirmDuplicate: true }
    } as never)
  })
})
