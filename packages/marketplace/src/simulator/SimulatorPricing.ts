/**
 * What the simulated Fragment charges and how it words its payment comments and amounts.
 * Prices are in nanoton; the defaults are in the range fragment.com showed in recorded answers.
 */
import type { SimKind } from "./SimulatorState.ts"

export interface SimulatorPrices {
  /** per star (default 9_218_000: 50 stars = 0.4609 TON) */
  readonly starNanoton?: bigint
  readonly premiumNanoton?: Partial<Record<3 | 6 | 12, bigint>>
  /** added on top of a TON top-up (default 0) */
  readonly topupFeeNanoton?: bigint
}

const PREMIUM_DEFAULT: Record<3 | 6 | 12, bigint> = {
  3: 3_560_000_000n,
  6: 4_750_000_000n,
  12: 8_610_000_000n
}

export const priceOf = (prices: SimulatorPrices, kind: SimKind, units: number): bigint => {
  switch (kind) {
    case "stars":
      return (prices.starNanoton ?? 9_218_000n) * BigInt(units)
    case "premium": {
      const months = units as 3 | 6 | 12
      return prices.premiumNanoton?.[months] ?? PREMIUM_DEFAULT[months]
    }
    case "ton":
      return BigInt(units) * 1_000_000_000n + (prices.topupFeeNanoton ?? 0n)
  }
}

/** Fragment's comment texts; 12 months is written "1 year". */
export const commentOf = (kind: SimKind, units: number, ref: string): string => {
  switch (kind) {
    case "stars":
      return `${units} Telegram Stars \n\nRef#${ref}`
    case "premium":
      return `Telegram Premium for ${units === 12 ? "1 year" : `${units} months`} \n\nRef#${ref}`
    case "ton":
      return `Telegram account top up \n\nRef#${ref}`
  }
}

/** Decimal TON text as Fragment writes it in init answers: "0.4609", "1,000.5" */
export const formatTon = (nanoton: bigint): string => {
  const whole = (nanoton / 1_000_000_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  const fraction = (nanoton % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "")
  return fraction.length === 0 ? whole : `${whole}.${fraction}`
}
