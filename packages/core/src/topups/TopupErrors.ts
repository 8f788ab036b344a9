import { Schema } from "effect"
import { TopupId } from "../ids.ts"
import { TopupStatus } from "./Topup.ts"

/** No such top-up, or one owned by someone else (same answer on purpose). */
export class TopupNotFound extends Schema.TaggedError<TopupNotFound>()("TopupNotFound", {
  topupId: TopupId
}) {}

/** The top-up is in `from`, from which `to` is not allowed (e.g. cancelling a paid top-up). */
export class TopupTransitionInvalid extends Schema.TaggedError<TopupTransitionInvalid>()("TopupTransitionInvalid", {
  topupId: TopupId,
  from: TopupStatus,
  to: TopupStatus
}) {}

/** The requested amount is outside the allowed range. */
export class TopupAmountInvalid extends Schema.TaggedError<TopupAmountInvalid>()("TopupAmountInvalid", {
  amount: Schema.Number,
  min: Schema.Int,
  max: Schema.Int
}) {}

/** All 1,000 offsets above this amount are held by pending top-ups; the user may retry shortly. */
export class TopupPayableExhausted extends Schema.TaggedError<TopupPayableExhausted>()("TopupPayableExhausted", {
  requested: Schema.Int
}) {}

/** The top-up has no receipt (or the receipt bytes are missing). */
export class ReceiptNotFound extends Schema.TaggedError<ReceiptNotFound>()("ReceiptNotFound", {
  topupId: TopupId
}) {}

/** A receipt that is not an image or PDF by its content, or is too large. */
export class ReceiptInvalid extends Schema.TaggedError<ReceiptInvalid>()("ReceiptInvalid", {
  reason: Schema.Literals(["UnsupportedType", "TooLarge", "Empty"]),
  message: Schema.String
}) {}

/**
 * An operator approves a receipt top-up while the same user was credited the same or a nearby amount
 * shortly before, or the same receipt file was seen on another top-up: most likely one payment
 * reported twice (a bank-matched card top-up, then its receipt; one file sent for two top-ups).
 * Approving again with the duplicate confirmed credits it; until then nothing moves.
 */
export class TopupPossibleDuplicate extends Schema.TaggedError<TopupPossibleDuplicate>()("TopupPossibleDuplicate", {
  topupId: TopupId,
  duplicateOf: TopupId,
  /** See `DuplicateReason`: the same file, the same amount, or an amount within the tolerance. */
  reason: Schema.Literals(["SameFile", "SameAmount", "NearAmount"]),
  amountUzs: Schema.Int,
  creditedAt: Schema.Date
}) {}
