import { Context, type Effect, type Option } from "effect"
import type { PaymentId, TopupId } from "../ids.ts"
import type { Page, PageRequest } from "../Page.ts"
import type { IncomingPayment, NewIncomingPayment, PaymentStatus } from "../payments/IncomingPayment.ts"
import type { PaymentAlreadyMatched, PaymentNotFound } from "../payments/PaymentErrors.ts"

/** Storage of card payments reported by the bank-message relay. */
/** Which payments to list: any of the statuses, received in [from, to), of exactly this amount. */
export type PaymentFilter = {
  readonly status?: ReadonlyArray<PaymentStatus>
  readonly from?: Date
  readonly to?: Date
  readonly amountUzs?: number
  /** Matched ones only: by the amount on arrival (`bank`), or assigned by an operator (`operator`). */
  readonly matchedBy?: "bank" | "operator"
  readonly newestFirst?: boolean
} & PageRequest

export class IncomingPayments extends Context.Service<
  IncomingPayments,
  {
    /**
     * Stores a payment in status `received`. When `externalId` is present it is unique: recording
     * the same external id again writes nothing and returns the first record with `created: false`
     * (PG: `ON CONFLICT (external_id) DO NOTHING` then select). Without an external id every call
     * creates a record.
     */
    readonly record: (
      payment: NewIncomingPayment,
      now: Date
    ) => Effect.Effect<{
      readonly payment: IncomingPayment
      readonly created: boolean
    }>
    readonly find: (id: PaymentId) => Effect.Effect<Option.Option<IncomingPayment>>
    /**
     * Marks the payment `matched` to `topupId`, only if it is not matched yet (conditional update).
     * Fails `PaymentNotFound`, or `PaymentAlreadyMatched` when it already is.
     */
    readonly markMatched: (
      id: PaymentId,
      topupId: TopupId,
      now: Date
    ) => Effect.Effect<IncomingPayment, PaymentNotFound | PaymentAlreadyMatched>
    /** Sets `unmatched` or `ambiguous`, only if not matched (same failures as `markMatched`). */
    readonly markUnresolved: (
      id: PaymentId,
      status: "unmatched" | "ambiguous",
      now: Date
    ) => Effect.Effect<IncomingPayment, PaymentNotFound | PaymentAlreadyMatched>
    /** Oldest first (the rematch job's arrival order), or newest first for operators' lists. */
    readonly list: (filter: PaymentFilter) => Effect.Effect<Page<IncomingPayment>>
  }
>()("core/ports/IncomingPayments") {}
