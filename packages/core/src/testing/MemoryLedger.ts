import { Effect, Layer, Result } from "effect"
import type { LedgerEntryId, UserId } from "../ids.ts"
import { type BalanceMovement, settle } from "../ledger/BalanceMovement.ts"
import type { LedgerEntry } from "../ledger/LedgerEntry.ts"
import type { InsufficientBalance } from "../ledger/LedgerErrors.ts"
import type { Uzs } from "../money/Uzs.ts"
import type { PageRequest } from "../Page.ts"
import { Ledger } from "../ports/Ledger.ts"
import { currentDate } from "../Time.ts"
import { MemoryDb, type MemoryState, nextId } from "./MemoryDb.ts"
import { paginate } from "./paginate.ts"

/** The balance of `userId`'s account; a user without one is a defect, as in the PostgreSQL store. */
export const accountBalance = (s: MemoryState, userId: UserId): Uzs => {
  const balance = s.balances.get(userId)
  if (balance === undefined) throw new Error(`no ledger account for user ${userId}`)
  return balance as Uzs
}

/** Records the entry of a movement core's `settle` allowed, and moves the balance to `balanceAfter`. */
export const recordMovement = (
  s: MemoryState,
  movement: BalanceMovement,
  balanceAfter: Uzs,
  now: Date
): LedgerEntry => {
  const entry: LedgerEntry = {
    id: nextId(s, "ledger") as LedgerEntryId,
    userId: movement.userId,
    amount: movement.amount,
    cause: movement.cause,
    causeId: movement.causeId,
    note: movement.note ?? null,
    balanceAfter,
    createdAt: now
  }
  s.ledger.push(entry)
  s.balances.set(movement.userId, balanceAfter)
  return entry
}

/** `Ledger` over the in-memory database: a running balance per user, moved by core's `settle`. */
export const MemoryLedger = Layer.effect(
  Ledger,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    return Ledger.of({
      post: (movement: BalanceMovement) =>
        Effect.flatMap(currentDate, (now) =>
          db.run<{ readonly entry: LedgerEntry; readonly created: boolean }, InsufficientBalance>((s) => {
            const existing = s.ledger.find((e) => e.cause === movement.cause && e.causeId === movement.causeId)
            if (existing !== undefined) return Result.succeed({ entry: existing, created: false })
            return Result.map(settle(movement, accountBalance(s, movement.userId)), (after) => ({
              entry: recordMovement(s, movement, after, now),
              created: true
            }))
          })
        ),
      balance: (userId: UserId) => db.read((s) => (s.balances.get(userId) ?? 0) as Uzs),
      entries: (userId: UserId, page: PageRequest) =>
        db.read((s) => paginate(s.ledger.filter((e) => e.userId === userId).reverse(), page))
    })
  })
)
