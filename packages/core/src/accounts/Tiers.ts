import type { UserId } from "../ids.ts"
import { type BalanceMovement, balanceMovement } from "../ledger/BalanceMovement.ts"
import { debit, uzs, type Uzs } from "../money/Uzs.ts"
import type { Tier } from "./User.ts"

/** Info-lookup tiers: daily lookups and the one-off price of upgrading to the tier (full price, no credit for a lower tier). */
export interface TierTerms {
  readonly tier: Tier
  readonly dailyLookups: number
  readonly priceUzs: Uzs
}

export const TIERS: Readonly<Record<Tier, TierTerms>> = {
  0: { tier: 0, dailyLookups: 10, priceUzs: uzs(0) },
  1: { tier: 1, dailyLookups: 100, priceUzs: uzs(50_000) },
  2: { tier: 2, dailyLookups: 1000, priceUzs: uzs(200_000) }
}

export const isTier = (n: number): n is Tier => n === 0 || n === 1 || n === 2

export const dailyLookupLimit = (tier: Tier): number => TIERS[tier].dailyLookups

/** The charge of upgrading `userId` to `tier` (cause `tier:<userId>:<tier>`, once per user and tier). */
export const tierCharge = (userId: UserId, tier: Tier): BalanceMovement =>
  balanceMovement({
    userId,
    amount: debit(TIERS[tier].priceUzs),
    cause: "tier",
    causeId: `${userId}:${tier}`,
    note: `info-lookup tier ${tier}`
  })
