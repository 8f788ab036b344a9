import { Effect, Option } from "effect"
import type { UserId } from "../ids.ts"
import { Topups } from "../ports/Topups.ts"
import type { Topup } from "./Topup.ts"

/** How far back a credit of the same amount makes a top-up or a payment a possible duplicate. */
export const DUPLICATE_WINDOW_MS = 72 * 60 * 60 * 1000

/** What a rule needs of a payment. */
export interface PaymentFacts {
  readonly amountUzs: number
  readonly createdAt: Date
}

const sameOwnerCredit = (other: Topup, topup: Topup, amount: number) =>
  other.id !== topup.id &&
  other.userId === topup.userId &&
  other.status === "paid" &&
  (other.payableUzs === amount || other.requestedUzs === amount)

/**
 * The credited top-up a top-up in review (it has a receipt) most likely repeats: same user, paid,
 * the same amount (payable or requested), credited at most three days before the top-up was created
 * or after it. A receipt attached to a new card top-up counts too: it may show the money an earlier
 * top-up of that amount was already credited with.
 */
export const duplicateAmong = (topup: Topup, credited: ReadonlyArray<Topup>): Option.Option<Topup> =>
  topup.status !== "review" || topup.receipt === null
    ? Option.none()
    : Option.fromNullishOr(credited.find((other) =>
      sameOwnerCredit(other, topup, topup.payableUzs) &&
      other.updatedAt.getTime() >= topup.createdAt.getTime() - DUPLICATE_WINDOW_MS
    ))

/**
 * For a bank payment about to confirm `target`: a top-up of the same owner credited on a receipt's
 * word alone (an operator's approve, no payment attached) for the payment's amount, within three
 * days of the payment. That credit most likely was this money already.
 */
export const creditedOnReceiptFor = (target: Topup, payment: PaymentFacts, credited: ReadonlyArray<Topup>): Option.Option<Topup> =>
  Option.fromNullishOr(credited.find((other) =>
    sameOwnerCredit(other, target, payment.amountUzs) &&
    other.confirmedBy === "operator" &&
    other.paymentId === null &&
    Math.abs(other.updatedAt.getTime() - payment.createdAt.getTime()) <= DUPLICATE_WINDOW_MS
  ))

/**
 * The latest credited top-ups (newest first, a hundred: more within three days would be a case for
 * an operator anyway) of each owner, read once per owner however many of their top-ups are checked.
 */
export const recentCredits = (userIds: ReadonlyArray<UserId>) =>
  Effect.gen(function*() {
    const topups = yield* Topups
    const owners = [...new Set(userIds)]
    const pages = yield* Effect.forEach(owners, (userId) => topups.list({ userId, status: ["paid"], offset: 0, limit: 100 }))
    return new Map(owners.map((userId, i) => [userId, pages[i]!.items] as const))
  })
