import { Schema } from "effect"

/** A non-negative amount of so'm (UZS has no minor unit in use): a safe integer, branded. */
export const Uzs = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).pipe(Schema.brand("Uzs"))
export type Uzs = typeof Uzs.Type

/** A signed amount of so'm: a ledger movement (credit > 0, debit < 0). */
export const SignedUzs = Schema.Int.pipe(Schema.brand("SignedUzs"))
export type SignedUzs = typeof SignedUzs.Type

/** Builds a `Uzs`; throws on a negative, fractional or unsafe number (use for trusted constants). */
export const uzs = (n: number): Uzs => Uzs.make(n)

export const credit = (amount: Uzs): SignedUzs => amount as number as SignedUzs
export const debit = (amount: Uzs): SignedUzs => (amount === 0 ? 0 : -amount) as SignedUzs

/** `count` units at `unitPrice` each, e.g. stars x price per star; throws past the safe-integer range. */
export const multiplyUzs = (unitPrice: Uzs, count: number): Uzs => uzs(unitPrice * count)
