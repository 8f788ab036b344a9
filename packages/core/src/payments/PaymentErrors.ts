import { Schema } from "effect"
import { PaymentId } from "../ids.ts"
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
