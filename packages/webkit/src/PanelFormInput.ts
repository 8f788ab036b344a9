import type { AdjustmentInvalid } from "@resale/core"
import { type PaymentId, TopupId, UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Data, Effect, Option, Schema } from "effect"
import { PaymentIdPath } from "./Fields.ts"
import { AdjustForm, AssignForm } from "./FormPayloads.ts"
import { pathIdOf } from "./PanelFields.ts"
import { checkFields, fieldsOf, type Loc, type ValidationErrorItem } from "./PydanticFields.ts"

/** The raw text of a request's path parameters, form fields and headers. */
export interface RawInput {
  readonly params: Readonly<Record<string, string | undefined>>
  readonly form: Readonly<Record<string, string>>
  readonly headers: Readonly<Record<string, string | undefined>>
}

/** The form's input is refused: FastAPI's 422 list. */
export class PanelInputInvalid extends Data.TaggedError("PanelInputInvalid")<{
  readonly items: ReadonlyArray<ValidationErrorItem>
}> {}

/** The path (or the form) names no record: a 404 with its code. */
export class PanelRecordNotFound extends Data.TaggedError("PanelRecordNotFound")<{
  readonly detail: string
  readonly code: "user_not_found" | "topup_not_found"
}> {}

/**
 * The input of the panel's two money-moving forms. Their fields are the schemas `AdjustForm` and
 * `AssignForm` (and the assignment's path `PaymentPath`), checked by the contract's own validator
 * (`PydanticFields.ts`, FastAPI's 422 list with every field at once); the JSON routes declare the
 * same schemas, so the web's forms (`adjustInput`, `assignInput`) and the routes refuse alike. What
 * a schema cannot say, the path naming a user and the one-time key, is `adjustTarget`.
 */
const pathUser = pathIdOf(UserId)
const topupIdOf = Schema.decodeUnknownOption(TopupId)
type Refusal = PanelInputInvalid | PanelRecordNotFound
const refused = (errors: ReadonlyArray<ValidationErrorItem>) => new PanelInputInvalid({ items: errors })

/** The assignment's path: a payment id (a positive integer), as the contract declares it. */
export const PaymentPath = Schema.Struct({ payment_id: PaymentIdPath })

/** The posted text of each part in FastAPI's order (path, header, body), checked as the contract checks it. */
const checked = (parts: ReadonlyArray<readonly [Loc, Schema.Top, Readonly<Record<string, unknown>>]>) => {
  const results = parts.map(([loc, schema, input]) => checkFields(loc, fieldsOf(schema), input, "text"))
  const errors = results.flatMap((r) => r.errors)
  return errors.length > 0 ? Effect.fail(refused(errors)) : Effect.succeed(results.map((r) => r.values))
}

/** The checked text decoded by its schema (the validator has checked every rule the schema has). */
const decoded = <A>(schema: Schema.Codec<A, unknown>, loc: Loc, values: unknown) =>
  Schema.decodeUnknownEffect(Schema.toCodecStringTree(schema))(values).pipe(
    Effect.mapError((issue) =>
      refused([{ type: "value_error", loc: [loc], msg: `Value error, ${String(issue)}`, input: null }])
    )
  )

export interface AdjustInput {
  readonly userId: UserId
  readonly amount: number
  readonly reason: string
  readonly key: string
}

const IDEMPOTENCY_KEY = /^[A-Za-z0-9-]{8,100}$/

/**
 * What the correction's schema cannot say, checked after its fields and before sign-in: the path
 * names a user id (else 404 `user_not_found`), and the form's one-time key, which makes a double
 * submit move money once, is there and well formed (else FastAPI's `missing` header record).
 */
export const adjustTarget = ({
  params,
  headers
}: Pick<RawInput, "params" | "headers">): Effect.Effect<{ readonly userId: UserId; readonly key: string }, Refusal> => {
  const userId = pathUser(params["user_id"])
  if (userId === undefined)
    return Effect.fail(new PanelRecordNotFound({ detail: "User not found", code: "user_not_found" }))
  const key = headers["idempotency-key"]
  if (key === undefined || !IDEMPOTENCY_KEY.test(key))
    return Effect.fail(
      refused([{ type: "missing", loc: ["header", "idempotency-key"], msg: "Field required", input: null }])
    )
  return Effect.succeed({ userId, key })
}

/** The correction from its decoded form and its target (the reason is kept trimmed). */
export const adjustOf = (
  fields: typeof AdjustForm.Type,
  target: { readonly userId: UserId; readonly key: string }
): AdjustInput => ({ ...target, amount: fields.amount_uzs, reason: fields.reason.trim() })

/** A balance correction as the web's form posts it: the fields, then the target. */
export const adjustInput = (raw: RawInput): Effect.Effect<AdjustInput, Refusal> =>
  Effect.gen(function* () {
    const [body] = yield* checked([["body", AdjustForm, raw.form]])
    const fields = yield* decoded(AdjustForm, "body", body)
    return adjustOf(fields, yield* adjustTarget(raw))
  })

export interface AssignInput {
  readonly paymentId: PaymentId
  /** None for a number that cannot be a top-up (0 or below): the operator's typo, a 404 once signed in. */
  readonly topupId: Option.Option<TopupId>
  readonly confirmDuplicate: boolean
}

/** The assignment from its decoded path and form. */
export const assignOf = (paymentId: PaymentId, fields: typeof AssignForm.Type): AssignInput => ({
  paymentId,
  topupId: topupIdOf(fields.topup_id),
  confirmDuplicate: fields.confirm_duplicate
})

/** A bank payment credited to a top-up the operator names, as the web's form posts it. */
export const assignInput = (raw: RawInput): Effect.Effect<AssignInput, Refusal> =>
  Effect.gen(function* () {
    const [path, body] = yield* checked([
      ["path", PaymentPath, raw.params],
      ["body", AssignForm, raw.form]
    ])
    const { payment_id } = yield* decoded(PaymentPath, "path", path)
    return assignOf(payment_id, yield* decoded(AssignForm, "body", body))
  })

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
