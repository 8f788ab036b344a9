import { Effect, Option } from "effect"
import type { UserId } from "../ids.ts"
import { Topups } from "../ports/Topups.ts"
import { isNearDuplicate } from "./NearAmount.ts"
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
 * Why a receipt in review may repeat another top-up:
 * - SameFile: another top-up (any user, any amount, any time) carries the very same file (SHA-256);
 * - SameAmount: the same owner was credited the same amount (payable or requested) within three days;
 * - NearAmount: the same owner was credited within three days an amount within the tolerance of it
 *   (`DUPLICATE_TOLERANCE` of `NearAmount`), e.g. 30,001 after 30,000.
 */
export type DuplicateReason = "SameFile" | "SameAmount" | "NearAmount"

export interface PossibleDuplicate {
  /** The top-up this one most likely repeats. */
  readonly of: Topup
  readonly reason: DuplicateReason
}

const recentFor = (topup: Topup) => (other: Topup) =>
  other.updatedAt.getTime() >= topup.createdAt.getTime() - DUPLICATE_WINDOW_MS

/**
 * What a top-up in review (it has a receipt) most likely repeats, first match wins: another top-up
 * with the same receipt file (`sameFile`: top-ups sharing a file hash with it, any user and status;
 * a paid one is preferred), a credit of the same owner and amount, then one of a nearby amount. A
 * receipt attached to a new card top-up counts too: it may show the money an earlier top-up of that
 * amount was already credited with.
 */
export const duplicateAmong = (
  topup: Topup,
  credited: ReadonlyArray<Topup>,
  sameFile: ReadonlyArray<Topup> = []
): Option.Option<PossibleDuplicate> => {
  if (topup.status !== "review" || topup.receipt === null) return Option.none()
  const hash = topup.receipt.sha256
  const twins = hash === null ? [] : sameFile.filter((o) => o.id !== topup.id && o.receipt?.sha256 === hash)
  const twin = twins.find((o) => o.status === "paid") ?? twins[0]
  if (twin !== undefined) return Option.some({ of: twin, reason: "SameFile" })
  const recent = credited.filter(recentFor(topup))
  const same = recent.find((other) => sameOwnerCredit(other, topup, topup.payableUzs))
  if (same !== undefined) return Option.some({ of: same, reason: "SameAmount" })
  const near = recent.find(
    (other) =>
      other.id !== topup.id &&
      other.userId === topup.userId &&
      other.status === "paid" &&
      (isNearDuplicate(other.payableUzs, topup.payableUzs) || isNearDuplicate(other.requestedUzs, topup.payableUzs))
  )
  return near === undefined ? Option.none() : Option.some({ of: near, reason: "NearAmount" })
}

/**
 * For a bank payment about to confirm `target`: a top-up of the same owner credited on a receipt's
 * word alone (an operator's approve, no payment attached) for the payment's amount, within three
 * days of the payment. That credit most likely was this money already.
 */
export const creditedOnReceiptFor = (
  target: Topup,
  payment: PaymentFacts,
  credited: ReadonlyArray<Topup>
): Option.Option<Topup> =>
  Option.fromNullishOr(
    credited.find(
      (other) =>
        sameOwnerCredit(other, target, payment.amountUzs) &&
        other.confirmedBy === "operator" &&
        other.paymentId === null &&
        Math.abs(other.updatedAt.getTime() - payment.createdAt.getTime()) <= DUPLICATE_WINDOW_MS
    )
  )

/**
 * The latest credited top-ups (newest first, a hundred: more within three days would be a case for
 * an operator anyway) of each owner, read once per owner however many of their top-ups are checked.
 */
export const recentCredits = (userIds: ReadonlyArray<UserId>) =>
  Effect.gen(function* () {
    const topups = yield* Topups
    const owners = [...new Set(userIds)]
    const pages = yield* Effect.forEach(owners, (userId) =>
      topups.list({ userId, status: ["paid"], offset: 0, limit: 100 })
    )
    return new Map(owners.map((userId, i) => [userId, pages[i]!.items] as const))
  })

/** The top-ups sharing a receipt file with any of `items` (one query for a whole list). */
export const receiptTwins = (items: ReadonlyArray<Topup>) =>
  Effect.gen(function* () {
    const topups = yield* Topups
    const hashes = [...new Set(items.flatMap((t) => (t.receipt?.sha256 == null ? [] : [t.receipt.sha256])))]
    return yield* topups.listByReceiptSha256(hashes)
  })
