import { Effect, Option } from "effect"
import { Topups } from "../ports/Topups.ts"
import type { Topup } from "./Topup.ts"

/** How far back a credit of the same amount makes a receipt top-up a possible duplicate. */
export const DUPLICATE_WINDOW_MS = 72 * 60 * 60 * 1000

/**
 * The credited top-up a top-up with a receipt most likely repeats: same user, paid, the same amount
 * (its payable or requested amount), credited at most three days before the top-up was created or
 * after it. A receipt attached to a new card top-up counts too: it may show the money an earlier
 * top-up of that amount was already credited with.
 */
export const duplicateAmong = (topup: Topup, credited: ReadonlyArray<Topup>): Option.Option<Topup> =>
  topup.receipt === null
    ? Option.none()
    : Option.fromNullishOr(credited.find((other) =>
      other.id !== topup.id &&
      other.userId === topup.userId &&
      other.status === "paid" &&
      (other.payableUzs === topup.payableUzs || other.requestedUzs === topup.payableUzs) &&
      other.updatedAt.getTime() >= topup.createdAt.getTime() - DUPLICATE_WINDOW_MS
    ))

/** Reads the owner's latest credited top-ups and applies `duplicateAmong`. */
export const findPossibleDuplicate = (topup: Topup) =>
  Effect.gen(function*() {
    if (topup.receipt === null) return Option.none<Topup>()
    const topups = yield* Topups
    // Newest first; a hundred credits within three days would be a case for an operator anyway.
    const paid = yield* topups.list({ userId: topup.userId, status: ["paid"], offset: 0, limit: 100 })
    return duplicateAmong(topup, paid.items)
  })

/**
 * For a bank payment about to be assigned to `target`: a top-up of the same owner credited on a
 * receipt's word alone (an operator's approve, no payment attached) for the payment's amount, within
 * three days of the payment. That credit most likely was this money already.
 */
export const creditedOnReceiptFor = (
  target: Topup,
  payment: { readonly amountUzs: number; readonly createdAt: Date },
  credited: ReadonlyArray<Topup>
): Option.Option<Topup> =>
  Option.fromNullishOr(credited.find((other) =>
    other.id !== target.id &&
    other.userId === target.userId &&
    other.status === "paid" &&
    other.confirmedBy === "operator" &&
    other.paymentId === null &&
    (other.payableUzs === payment.amountUzs || other.requestedUzs === payment.amountUzs) &&
    Math.abs(other.updatedAt.getTime() - payment.createdAt.getTime()) <= DUPLICATE_WINDOW_MS
  ))

/** Reads the owner's latest credited top-ups and applies `creditedOnReceiptFor`. */
export const findCreditedOnReceipt = (target: Topup, payment: { readonly amountUzs: number; readonly createdAt: Date }) =>
  Effect.gen(function*() {
    const topups = yield* Topups
    const paid = yield* topups.list({ userId: target.userId, status: ["paid"], offset: 0, limit: 100 })
    return creditedOnReceiptFor(target, payment, paid.items)
  })
