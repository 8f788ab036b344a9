import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { BoolDefaultFalse, File, form, Int, IntText, Str, StrDefaultEmpty, valueRule } from "./Fields.ts"

/**
 * The fields of the signed-in shopper's form posts: the JSON contract declares its routes with them
 * and the web's forms decode the browser's post with them, so both refuse the same input alike.
 */
export const TopupForm = form({ amount_uzs: Int })

/** The receipt's text fields; the file itself is read by whoever receives the body (see `ReceiptForm`). */
export const ReceiptFields = { amount_uzs: IntText }
/** The receipt upload as the contract parses it: the amount and one file. */
export const ReceiptForm = Schema.Struct({ ...ReceiptFields, receipt: File }).pipe(HttpApiSchema.asMultipart())

export const StarsForm = form({ username: Str, amount: Int })
export const PremiumForm = form({ username: Str, duration: Int })
export const GiftForm = form({ username: Str, gift_id: Str, comment: StrDefaultEmpty })
export const TierForm = form({ tier: Int })
export const NewTicketForm = form({ subject: StrDefaultEmpty, body: StrDefaultEmpty })
export const ReplyForm = form({ body: StrDefaultEmpty })

/** The rotation's one choice: a form field, as every post of the signed-in surface (the page's checkbox too). */
export const RotateForm = form({
  keep_webhooks: BoolDefaultFalse.annotate({
    description: "Keep the webhook endpoints registered with the old key; by default they are removed with it."
  })
})

/** The operator's sign-in: the admin token (absent is a wrong one). */
export const LoginForm = Schema.Struct({ token: Schema.optionalKey(Str) }).pipe(HttpApiSchema.asFormUrlEncoded())

/** The operator panel's forms. */
export const PricingForm = form({
  star_price_uzs: Int,
  premium_3_month_uzs: Int,
  premium_6_month_uzs: Int,
  premium_12_month_uzs: Int
})
// confirm_duplicate: the operator checked that a receipt repeating a recent credit is a second payment.
export const ApproveForm = form({ admin_note: StrDefaultEmpty, confirm_duplicate: BoolDefaultFalse })
export const RejectForm = form({ admin_note: StrDefaultEmpty })
export const MarkDoneForm = form({ tx_id: StrDefaultEmpty })
export const RefundForm = form({ note: StrDefaultEmpty })

/** The longest reason of a balance correction (it is shown to the shopper in the history). */
export const ADJUST_REASON_MAX = 500

/**
 * The panel's balance correction: a signed amount that is not zero, and a reason of 1 to 500
 * characters once trimmed (the one-time key is a header: `PanelFormInput.ts`).
 */
export const AdjustForm = form({
  amount_uzs: Int.check(valueRule("must not be zero", (n: number) => n !== 0)),
  reason: Str.check(
    Schema.isMaxLength(ADJUST_REASON_MAX),
    valueRule(`1 to ${ADJUST_REASON_MAX} characters`, (s: string) => s.trim() !== "")
  )
})

/**
 * A bank payment credited to the top-up the operator names: any whole number (one that cannot be a
 * top-up is answered "not found" once signed in, as a typo of an existing one is).
 */
export const AssignForm = form({ topup_id: Int, confirm_duplicate: BoolDefaultFalse })
