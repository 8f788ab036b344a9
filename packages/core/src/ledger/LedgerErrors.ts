import { Schema } from "effect"
import { UserId } from "../ids.ts"
import { Uzs } from "../money/Uzs.ts"

/** A debit would take the balance below zero; nothing was written. */
export class InsufficientBalance extends Schema.TaggedError<InsufficientBalance>()("InsufficientBalance", {
  userId: UserId,
  balance: Uzs,
  required: Uzs
}) {}

/** An operator adjustment that is zero, or not a safe integer. */
export class AdjustmentInvalid extends Schema.TaggedError<AdjustmentInvalid>()("AdjustmentInvalid", {
  amount: Schema.Number,
  message: Schema.String
}) {}
