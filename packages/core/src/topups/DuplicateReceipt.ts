import { Effect, Option } from "effect"
import { Topups } from "../ports/Topups.ts"
import type { Topup } from "./Topup.ts"

/** How far back a credit of the same amount makes a receipt top-up a possible duplicate. */
export const DUPLICATE_WINDOW_MS = 72 * 60 * 60 * 1000

/**
 * The credited top-up a receipt top-up most likely repeats: same user, paid, the same amount (its
 * payable or requested amount), credited at most three days before the receipt came or after it.
 * Only top-ups created with a receipt alone are checked: a receipt attached to a pending card
 * top-up names that one payment already.
 */
export const duplicateAmong = (topup: Topup, credited: ReadonlyArray<Topup>): Option.Option<Topup> =>
  topup.method !== "receipt"
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
    if (topup.method !== "receipt") return Option.none<Topup>()
    const topups = yield* Topups
    // Newest first; a hundred credits within three days would be a case for an operator anyway.
    const paid = yield* topups.list({ userId: topup.userId, status: ["paid"], offset: 0, limit: 100 })
    return duplicateAmong(topup, paid.items)
  })
