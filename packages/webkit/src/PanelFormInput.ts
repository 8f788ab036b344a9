import type { AdjustmentInvalid } from "@resale/core"
import { PaymentId, TopupId, UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Data, Effect, Option, Schema } from "effect"
import { boolField, intField, pathIdOf, strField, type ValidationItem } from "./PanelFields.ts"

/** The raw text of a request's path parameters, form fields and headers. */
export interface RawInput {
  readonly params: Readonly<Record<string, string | undefined>>
  readonly form: Readonly<Record<string, string>>
  readonly headers: Readonly<Record<string, string | undefined>>
}

/** The form's input is refused: FastAPI's 422 list. */
export class PanelInputInvalid extends Data.TaggedError("PanelInputInvalid")<{
  readonly items: ReadonlyArray<ValidationItem>
}> {}

/** The path (or the form) names no record: a 404 with its code. */
export class PanelRecordNotFound extends Data.TaggedError("PanelRecordNotFound")<{
  readonly detail: string
  readonly code: "user_not_found" | "topup_not_found"
}> {}

/**
 * The input of the panel's two money-moving forms, decoded by the rules they have always had (the
 * 422 lists below are the answers the panel's scripts and tests know): the check before sign-in
 * (`CheckBeforeAuth`) and the handler decode the same way.
 */
const pathUser = pathIdOf(UserId)
const pathPayment = pathIdOf(PaymentId)
const topupIdOf = Schema.decodeUnknownOption(TopupId)
type Refusal = PanelInputInvalid | PanelRecordNotFound
const refused = (errors: ReadonlyArray<ValidationItem>) => new PanelInputInvalid({ items: errors })

export interface AdjustInput {
  readonly userId: UserId
  readonly amount: number
  readonly reason: string
  readonly key: string
}

/** A balance correction: a signed non-zero amount, a reason of 1 to 500 characters, a one-time key. */
export const adjustInput = ({ params, form, headers }: RawInput): Effect.Effect<AdjustInput, Refusal> => {
  const userId = pathUser(params["user_id"])
  const errors: Array<ValidationItem> = []
  const amount = intField(["body", "amount_uzs"], form["amount_uzs"]?.replace(/^\+/, ""), errors)
  const reason = strField(["body", "reason"], form["reason"], errors).trim()
  if (errors.length === 0 && amount === 0)
    errors.push({ type: "value_error", loc: ["body", "amount_uzs"], msg: "Value error, must not be zero", input: 0 })
  if (errors.length === 0 && (reason === "" || reason.length > 500))
    errors.push({
      type: "value_error",
      loc: ["body", "reason"],
      msg: "Value error, 1 to 500 characters",
      input: reason
    })
  // The form's one-time key makes the correction idempotent: a double submit moves money once.
  const key = headers["idempotency-key"]
  if (errors.length === 0 && (key === undefined || !/^[A-Za-z0-9-]{8,100}$/.test(key)))
    errors.push({ type: "missing", loc: ["header", "idempotency-key"], msg: "Field required", input: null })
  if (userId === undefined)
    return Effect.fail(new PanelRecordNotFound({ detail: "User not found", code: "user_not_found" }))
  if (errors.length > 0 || key === undefined) return Effect.fail(refused(errors))
  return Effect.succeed({ userId, amount, reason, key })
}

export interface AssignInput {
  readonly paymentId: PaymentId
  /** None for a number that cannot be a top-up (0 or below): the operator's typo, a 404 once signed in. */
  readonly topupId: Option.Option<TopupId>
  readonly confirmDuplicate: boolean
}

/** A bank payment credited to a top-up the operator names. */
export const assignInput = ({ params, form }: RawInput): Effect.Effect<AssignInput, Refusal> => {
  const paymentId = pathPayment(params["payment_id"])
  const errors: Array<ValidationItem> = []
  const topupId = intField(["body", "topup_id"], form["topup_id"], errors)
  const confirmDuplicate = boolField(["body", "confirm_duplicate"], form["confirm_duplicate"], errors)
  if (paymentId === undefined)
    errors.push({
      type: "int_parsing",
      loc: ["path", "payment_id"],
      msg: "Input should be a valid integer, unable to parse string as an integer",
      input: null
    })
  if (errors.length > 0 || paymentId === undefined) return Effect.fail(refused(errors))
  return Effect.succeed({ paymentId, topupId: topupIdOf(topupId), confirmDuplicate })
}

/**
 * The correction itself, once per form key (`web:<key>`). The core's own rule refusing the amount is
 * the same 422 as the form's rules give.
 */
export const adjustBalance = (input: AdjustInput) =>
  Effect.gen(function* () {
    const balances = yield* Balances
    const { entry } = yield* balances
      .adjust({ userId: input.userId, amount: input.amount, reason: input.reason, key: `web:${input.key}` })
      .pipe(
        Effect.catchTag("AdjustmentInvalid", (e: AdjustmentInvalid) =>
          Effect.fail(
            refused([
              {
                type: "value_error",
                loc: ["body", "amount_uzs"],
                msg: `Value error, ${e.message}`,
                input: input.amount
              }
            ])
          )
        )
      )
    return { user_id: input.userId, entry_id: entry.id, amount_uzs: entry.amount, balance_uzs: entry.balanceAfter }
  })

/** Credits the payment to the top-up named; a top-up number that cannot exist is the operator's typo, a plain 404. */
export const assignPayment = (input: AssignInput) =>
  Effect.gen(function* () {
    if (Option.isNone(input.topupId))
      return yield* new PanelRecordNotFound({ detail: "Top-up not found", code: "topup_not_found" })
    const topupId = input.topupId.value
    const topups = yield* TopupService
    const payments = yield* Payments
    yield* topups.find({ kind: "operator" }, topupId)
    const result = yield* payments.assign(input.paymentId, topupId, { confirmDuplicate: input.confirmDuplicate })
    return {
      payment_id: result.payment.id,
      status: result.payment.status,
      topup_id: Option.match(result.topup, { onNone: () => result.payment.topupId, onSome: (t) => t.id }),
      duplicate: false
    }
  })
