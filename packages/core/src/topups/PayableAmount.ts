import { Option } from "effect"
import type { UserId } from "../ids.ts"
import type { Uzs } from "../money/Uzs.ts"
import type { Topup } from "./Topup.ts"

/**
 * The choice of a card top-up's payable amount: requested + an offset in 0..PAYABLE_OFFSETS-1 so'm,
 * unique among the amounts a bank payment could still be meant for. The rules live here; the storage
 * adapters gather what is taken (PostgreSQL in one statement under its lock) and insert the choice.
 */

/** Offsets 0..999 so'm above the requested amount make a payable amount recognisable. */
export const PAYABLE_OFFSETS = 1000

/** What stands in the way of payable amounts in the requested range, as seen by one owner. */
export interface PayableTaken {
  /** Held by an open card top-up (`pending`, or `review` after its owner sent a receipt). */
  readonly open: ReadonlySet<number>
  /** Quarantined by a closed card top-up of another account, or one an operator credited. */
  readonly quarantinedByOthers: ReadonlySet<number>
  /** The owner's own cancelled, rejected or expired amounts still in quarantine: free for them. */
  readonly ownQuarantined: ReadonlySet<number>
}

/**
 * The payable amount for `requested`: the smallest free offset, preferring the owner's own quarantined
 * amounts (a late payment for one then credits the same account, and churn holds no new amounts).
 * None when every offset is taken.
 */
export const choosePayable = (requested: Uzs, taken: PayableTaken): Option.Option<Uzs> => {
  let firstFree: number | undefined
  for (let offset = 0; offset < PAYABLE_OFFSETS; offset++) {
    const amount = requested + offset
    if (taken.open.has(amount) || taken.quarantinedByOthers.has(amount)) continue
    if (taken.ownQuarantined.has(amount)) return Option.some(amount as Uzs)
    firstFree ??= amount
  }
  return firstFree === undefined ? Option.none() : Option.some(firstFree as Uzs)
}

/** Holds its payable amount: pending, or a card top-up in review (its owner also sent a receipt). */
export const holdsPayable = (t: Topup): boolean =>
  t.status === "pending" || (t.status === "review" && t.method === "card")

/** A card top-up still waiting for its payment at `now`: pending and not yet expired. */
export const isLivePending = (t: Topup, now: Date): boolean =>
  t.status === "pending" && t.method === "card" && t.expiresAt !== null && t.expiresAt.getTime() > now.getTime()

/**
 * Whether a bank payment of its payable amount may confirm `t` at `now`: a live pending card top-up, or
 * one in review (its owner also sent a receipt; it no longer expires). Stores read the holders of an
 * amount (`Topups.findHoldingPayable`); this decides which of them a payment may credit.
 */
export const matchesPayment = (t: Topup, now: Date): boolean =>
  isLivePending(t, now) || (t.status === "review" && t.method === "card")

/**
 * A closed card top-up created or closed after `since` keeps its payable amount out of reach of new
 * top-ups, so a late bank payment for it cannot credit someone else; one a bank payment confirmed is exempt.
 */
export const quarantinesPayable = (t: Topup, since: Date): boolean =>
  t.method === "card" && !holdsPayable(t) && t.confirmedBy !== "payment" && (t.updatedAt > since || t.createdAt > since)

/** How `t` bears on `owner`'s choice (see `PayableTaken`); `undefined` when it does not. */
export const payableClaim = (t: Topup, owner: UserId, since: Date): keyof PayableTaken | undefined =>
  holdsPayable(t)
    ? "open"
    : !quarantinesPayable(t, since)
      ? undefined
      : t.userId === owner && t.status !== "paid"
        ? "ownQuarantined"
        : "quarantinedByOthers"

/** `PayableTaken` from (claim, amount) pairs, as a store reads them. */
export const payableTakenOf = (claims: Iterable<readonly [keyof PayableTaken, number]>): PayableTaken => {
  const taken = { open: new Set<number>(), quarantinedByOthers: new Set<number>(), ownQuarantined: new Set<number>() }
  for (const [claim, amount] of claims) taken[claim].add(amount)
  return taken
}

/** `PayableTaken` over top-ups in memory. */
export const payableTakenAmong = (topups: Iterable<Topup>, owner: UserId, since: Date): PayableTaken =>
  payableTakenOf(
    Array.from(topups).flatMap((t) => {
      const claim = payableClaim(t, owner, since)
      return claim === undefined ? [] : [[claim, t.payableUzs] as const]
    })
  )
