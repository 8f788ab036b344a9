import { Context, Effect, Layer, Option } from "effect"
import { UserNotFound } from "../accounts/AccountErrors.ts"
import type { UserId } from "../ids.ts"
import type { SignedUzs, Uzs } from "../money/Uzs.ts"
import { type BalanceMovement, balanceMovement } from "./BalanceMovement.ts"
import type { Page, PageRequest } from "../Page.ts"
import { Ledger } from "../ports/Ledger.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Transactor } from "../ports/Transactor.ts"
import { Users } from "../ports/Users.ts"
import { currentDate } from "../Time.ts"
import type { LedgerEntry } from "./LedgerEntry.ts"
import { AdjustmentInvalid, type InsufficientBalance } from "./LedgerErrors.ts"

export interface Adjustment {
  readonly userId: UserId
  /** Signed so'm: positive credits, negative debits. */
  readonly amount: number
  /** Why; kept on the entry and shown to the user. */
  readonly reason: string
  /** The operator request's idempotency key: the same key adjusts once. */
  readonly key: string
}

/**
 * The movement of an operator's adjustment (cause `adjust:<key>`, the reason as its note), or why it is
 * refused: a non-zero whole amount, a reason and a key of 1-200 characters. A debit rests on no overdraft
 * like any other movement.
 */
export const adjustmentMovement = (adjustment: Adjustment): AdjustmentInvalid | BalanceMovement => {
  const { amount, userId } = adjustment
  if (!Number.isSafeInteger(amount) || amount === 0) {
    return new AdjustmentInvalid({ amount, message: "amount must be a non-zero integer number of so'm" })
  }
  const reason = adjustment.reason.trim()
  if (reason === "") return new AdjustmentInvalid({ amount, message: "a reason is required" })
  const key = adjustment.key.trim()
  if (key === "" || key.length > 200) {
    return new AdjustmentInvalid({ amount, message: "a key of 1-200 characters is required" })
  }
  return balanceMovement({ userId, amount: amount as SignedUzs, cause: "adjust", causeId: key, note: reason })
}

/** Balances and ledger history; operator corrections are new entries, never edits. */
export class Balances extends Context.Service<
  Balances,
  {
    readonly balance: (userId: UserId) => Effect.Effect<Uzs>
    readonly entries: (userId: UserId, page: PageRequest) => Effect.Effect<Page<LedgerEntry>>
    /**
     * Operator adjustment: one ledger entry (cause `adjust:<key>`) with the reason as its note, and a
     * notification to the user. A debit cannot take the balance below zero.
     */
    readonly adjust: (
      adjustment: Adjustment
    ) => Effect.Effect<
      { readonly entry: LedgerEntry; readonly created: boolean },
      AdjustmentInvalid | InsufficientBalance | UserNotFound
    >
  }
>()("core/ledger/Balances") {
  static readonly layer = Layer.effect(
    Balances,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const users = yield* Users
      const outbox = yield* Outbox
      const tx = yield* Transactor

      const balance = Effect.fn("Balances.balance")(function* (userId: UserId) {
        return yield* ledger.balance(userId)
      })

      const entries = Effect.fn("Balances.entries")(function* (userId: UserId, page: PageRequest) {
        return yield* ledger.entries(userId, page)
      })

      const adjust = Effect.fn("Balances.adjust")(function* (adjustment: Adjustment) {
        const movement = adjustmentMovement(adjustment)
        if ("_tag" in movement) return yield* movement
        const { amount, userId } = movement
        const reason = movement.note ?? ""
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            if (Option.isNone(yield* users.find(userId))) return yield* new UserNotFound({ userId })
            const posted = yield* ledger.post(movement)
            if (posted.created) {
              yield* outbox.add(
                {
                  kind: "balance.adjusted",
                  userId,
                  payload: { amountUzs: amount, balanceUzs: posted.entry.balanceAfter, reason }
                },
                yield* currentDate
              )
            }
            return posted
          })
        )
      })

      return Balances.of({ balance, entries, adjust })
    })
  )
}
