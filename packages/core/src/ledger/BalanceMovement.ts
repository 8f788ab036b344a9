import { Result } from "effect"
import type { Uzs } from "../money/Uzs.ts"
import { type Prices, PricesChanged, samePrices } from "../pricing/Prices.ts"
import type { LedgerPosting } from "./LedgerEntry.ts"
import { InsufficientBalance } from "./LedgerErrors.ts"

/**
 * One move of a balance, decided here: the amount, the cause and cause id (its idempotency key), the
 * note, and the condition it rests on. A store applies exactly this value or nothing; it decides none
 * of it (PostgreSQL tests the condition in the statement that moves the money, the in-memory fakes call
 * `settle`).
 */
export interface BalanceMovement extends LedgerPosting {
  /** Applied only while the balance right after it is at least this: 0, no account is ever overdrawn. */
  readonly minBalanceAfter: Uzs
}

/** No movement may take a balance below zero. */
export const NO_OVERDRAFT = 0 as Uzs

/** A movement of `posting` under the rule that holds for every movement: no overdraft. */
export const balanceMovement = (posting: LedgerPosting): BalanceMovement => ({
  ...posting,
  minBalanceAfter: NO_OVERDRAFT
})

/**
 * A cause id built around an id the store assigns in the same write (a new order's): `before`, the id in
 * decimal, `after`. Stated here so the store only puts the id in its place.
 */
export interface CauseIdPattern {
  readonly before: string
  readonly after: string
}

/** The cause id `pattern` gives for `id`. */
export const causeIdAround = (pattern: CauseIdPattern, id: number): string => `${pattern.before}${id}${pattern.after}`

/**
 * The charge of a record the same write creates (an order): a `BalanceMovement` whose cause id waits for
 * the record's id, resting also on the price list the amount was computed from still being the current one.
 */
export interface ChargeOfNew extends Omit<BalanceMovement, "causeId"> {
  readonly causeId: CauseIdPattern
  /** Applied only while this is the current price list (`Pricing.get`'s). */
  readonly pricedAt: Prices
}

/** What a store knows of the account when it applies a `ChargeOfNew`. */
export interface AccountState {
  readonly balance: Uzs
  /** Whether the price list the charge rests on is still the current one. */
  readonly pricesCurrent: boolean
}

/** Why a movement was refused: nothing was written. */
export type MovementRefused = InsufficientBalance | PricesChanged

/** Whether the price list `charge` rests on is `current`. */
export const pricesHold = (charge: ChargeOfNew, current: Prices): boolean => samePrices(charge.pricedAt, current)

/** Why `movement` cannot apply to an account holding `balance`, or undefined when it can. */
export const balanceRefusal = (
  movement: BalanceMovement | ChargeOfNew,
  balance: Uzs
): InsufficientBalance | undefined =>
  balance + movement.amount >= movement.minBalanceAfter
    ? undefined
    : new InsufficientBalance({
        userId: movement.userId,
        balance,
        required: Math.max(0, movement.minBalanceAfter - movement.amount) as Uzs
      })

/**
 * Why `charge` cannot apply to `account` (the price list first, then the balance), or undefined when it
 * can. A store whose write was refused asks this, over what it reads next, to name the refusal.
 */
export const refusalOf = (charge: ChargeOfNew, account: AccountState): MovementRefused | undefined =>
  account.pricesCurrent ? balanceRefusal(charge, account.balance) : new PricesChanged()

/** The balance right after `movement` applies to an account holding `balance`, or why it may not. */
export const settle = (movement: BalanceMovement, balance: Uzs): Result.Result<Uzs, InsufficientBalance> => {
  const refused = balanceRefusal(movement, balance)
  return refused === undefined ? Result.succeed((balance + movement.amount) as Uzs) : Result.fail(refused)
}

/** The balance right after `charge` applies to an account holding `balance` while `current` is the price list, or why not. */
export const settleCharge = (
  charge: ChargeOfNew,
  balance: Uzs,
  current: Prices
): Result.Result<Uzs, MovementRefused> => {
  const refused = refusalOf(charge, { balance, pricesCurrent: pricesHold(charge, current) })
  return refused === undefined ? Result.succeed((balance + charge.amount) as Uzs) : Result.fail(refused)
}
