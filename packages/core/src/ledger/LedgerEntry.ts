import { Schema } from "effect"
import { LedgerEntryId, UserId } from "../ids.ts"
import { SignedUzs, Uzs } from "../money/Uzs.ts"

/**
 * Why money moved. Together with `causeId` it is the entry's idempotency key: (cause, causeId) is
 * unique, so the same cause can never move money twice.
 * - topup:  causeId `<topupId>` (credit)
 * - order:  causeId `<orderId>` for the first charge, `<orderId>:retry:<n>` for the n-th re-charge (debit)
 * - refund: causeId `<orderId>` for the first charge's refund, `<orderId>:<n>` for re-charge n (credit)
 * - tier:   causeId `<userId>:<tier>` (debit, info-lookup tier upgrade)
 * - adjust: causeId chosen by the operator's request (credit or debit, with a note)
 */
export const LedgerCause = Schema.Literals(["topup", "order", "refund", "tier", "adjust"])
export type LedgerCause = typeof LedgerCause.Type

/** What a use case asks the ledger to record. */
export const LedgerPosting = Schema.Struct({
  userId: UserId,
  amount: SignedUzs,
  cause: LedgerCause,
  causeId: Schema.String,
  note: Schema.optionalKey(Schema.String)
})
export type LedgerPosting = typeof LedgerPosting.Type

/** An immutable ledger row. A correction is a new entry, never an edit. */
export const LedgerEntry = Schema.Struct({
  id: LedgerEntryId,
  userId: UserId,
  amount: SignedUzs,
  cause: LedgerCause,
  causeId: Schema.String,
  note: Schema.NullOr(Schema.String),
  /** The account's balance right after this entry. */
  balanceAfter: Uzs,
  createdAt: Schema.Date
})
export type LedgerEntry = typeof LedgerEntry.Type
