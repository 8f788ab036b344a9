import { PaymentId, TopupId, UserId } from "@resale/core/ids.ts"
import { Effect, type Option, Schema } from "effect"
import { boolField, intField, pathIdOf, strField, type ValidationItem } from "../routes/RouteKit.ts"
import { HTTPValidationError, NotFound } from "./Errors.ts"
import type { RawInput } from "./PreAuthCheck.ts"

/**
 * The input of the panel's two money-moving forms, decoded by the rules they have always had (the
 * 422 lists below are the answers the panel's scripts and tests know): the check before sign-in
 * (`CheckBeforeAuth`) and the handler decode the same way.
 */
const pathUser = pathIdOf(UserId)
const pathPayment = pathIdOf(PaymentId)
const topupIdOf = Schema.decodeUnknownOption(TopupId)
type Refusal = HTTPValidationError | NotFound
const refused = (errors: ReadonlyArray<ValidationItem>) => new HTTPValidationError({ detail: errors })

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
  if (userId === undefined) return Effect.fail(new NotFound({ detail: "User not found", code: "user_not_found" }))
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

/** The check before sign-in of an endpoint decoded by `decode`. */
export const checkOf =
  <A>(decode: (input: RawInput) => Effect.Effect<A, Refusal>) =>
  (input: RawInput) =>
    Effect.asVoid(decode(input))
