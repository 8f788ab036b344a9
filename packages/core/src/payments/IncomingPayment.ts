import { Schema } from "effect"
import { PaymentId, TopupId } from "../ids.ts"
import { Uzs } from "../money/Uzs.ts"

/**
 * - received:  just recorded, matching not yet decided
 * - matched:   confirmed exactly one top-up (`topupId`)
 * - unmatched: no live pending top-up had this payable amount; waits for an operator or a rematch
 * - ambiguous: several did; never guessed, waits for an operator
 */
export const PaymentStatus = Schema.Literals(["received", "matched", "unmatched", "ambiguous"])
export type PaymentStatus = typeof PaymentStatus.Type

/** A card payment reported by the bank-message relay. */
export const IncomingPayment = Schema.Struct({
  id: PaymentId,
  amountUzs: Uzs,
  cardLast4: Schema.NullOr(Schema.String),
  /** Bank message / transaction id; unique when present, so one bank message is processed once. */
  externalId: Schema.NullOr(Schema.String),
  status: PaymentStatus,
  topupId: Schema.NullOr(TopupId),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
export type IncomingPayment = typeof IncomingPayment.Type

export const NewIncomingPayment = Schema.Struct({
  amountUzs: Uzs,
  cardLast4: Schema.NullOr(Schema.String),
  externalId: Schema.NullOr(Schema.String)
})
export type NewIncomingPayment = typeof NewIncomingPayment.Type
