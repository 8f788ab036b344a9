import { Schema } from "effect"
import { PaymentId, TopupId } from "../ids.ts"
import { PaymentStatus } from "./IncomingPayment.ts"

export class PaymentNotFound extends Schema.TaggedError<PaymentNotFound>()("PaymentNotFound", {
  paymentId: PaymentId
}) {}

/** The payment already confirmed a top-up; it cannot be assigned again. */
export class PaymentAlreadyMatched extends Schema.TaggedError<PaymentAlreadyMatched>()("PaymentAlreadyMatched", {
  paymentId: PaymentId,
  status: PaymentStatus
}) {}

/** An incoming payment whose fields are unusable (amount not a positive integer, card digits wrong). */
export class PaymentInvalid extends Schema.TaggedError<PaymentInvalid>()("PaymentInvalid", {
  reason: Schema.Literals(["Amount", "CardLast4", "ExternalId"]),
  message: Schema.String
}) {}

/**
 * An operator assigns a bank payment to a top-up while its owner was credited the same amount on a
 * receipt alone (approved, no payment attached) shortly before: the payment is most likely the money
 * behind that receipt. Assigning again with the duplicate confirmed credits it; until then nothing moves.
 */
export class PaymentPossibleDuplicate extends Schema.TaggedError<PaymentPossibleDuplicate>()(
  "PaymentPossibleDuplicate",
  {
    paymentId: PaymentId,
    topupId: TopupId,
    creditedTopupId: TopupId,
    amountUzs: Schema.Int
  }
) {}
