import { Schema } from "effect"
import { PaymentId, TopupId, UserId } from "../ids.ts"
import { Uzs } from "../money/Uzs.ts"

/**
 * - pending:   card transfer awaiting the payable amount (expires)
 * - review:    receipt uploaded, awaiting an operator (a card top-up keeps its payable amount, and a
 *              bank payment of that amount may still confirm it; it no longer expires)
 * - paid:      credited (exactly once, ledger cause `topup:<id>`)
 * - cancelled: by the owner; rejected: by an operator; expired: by the worker
 */
export const TopupStatus = Schema.Literals(["pending", "review", "paid", "cancelled", "rejected", "expired"])
export type TopupStatus = typeof TopupStatus.Type

/** How the user pays: a card transfer of the payable amount, or a stated amount with a receipt. */
export const TopupMethod = Schema.Literals(["card", "receipt"])
export type TopupMethod = typeof TopupMethod.Type

/** Metadata of an uploaded receipt; the bytes live in the `Receipts` store under `key`. */
export const ReceiptInfo = Schema.Struct({
  key: Schema.String,
  contentType: Schema.String,
  size: Schema.Int,
  /** SHA-256 of the file, lower-case hex: the same file again is a possible duplicate. Null for files stored before it was kept. */
  sha256: Schema.NullOr(Schema.String)
})
export type ReceiptInfo = typeof ReceiptInfo.Type

/** Who closed a top-up as paid. */
export const TopupConfirmation = Schema.Literals(["payment", "operator", "admin_api"])
export type TopupConfirmation = typeof TopupConfirmation.Type

export const Topup = Schema.Struct({
  id: TopupId,
  userId: UserId,
  method: TopupMethod,
  /** What the user asked for (card) or says they paid (receipt). */
  requestedUzs: Uzs,
  /** The exact amount to transfer: requested + an offset unique among open card top-ups (card); = requested (receipt). */
  payableUzs: Uzs,
  /** What the ledger credited; set exactly when status becomes `paid`. */
  creditedUzs: Schema.NullOr(Uzs),
  status: TopupStatus,
  receipt: Schema.NullOr(ReceiptInfo),
  adminNote: Schema.NullOr(Schema.String),
  /** The incoming payment that confirmed it, when one did. */
  paymentId: Schema.NullOr(PaymentId),
  confirmedBy: Schema.NullOr(TopupConfirmation),
  /** Card top-ups only: after this instant the worker expires it and no payment matches it. */
  expiresAt: Schema.NullOr(Schema.Date),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
export type Topup = typeof Topup.Type
