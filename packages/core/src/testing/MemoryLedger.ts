import { Effect, Layer, Result } from "effect"
import type { LedgerEntryId, UserId } from "../ids.ts"
import type { LedgerEntry, LedgerPosting } from "../ledger/LedgerEntry.ts"
import { InsufficientBalance } from "../ledger/LedgerErrors.ts"
import type { Uzs } from "../money/Uzs.ts"
import type { PageRequest } from "../Page.ts"
import { Ledger } from "../ports/Ledger.ts"
import { currentDate } from "../Time.ts"
import { MemoryDb, nextId } from "./MemoryDb.ts"
import { paginate } from "./paginate.ts"

/** `Ledger` over the in-memory database: a running balance per user moved with each entry. */
export const MemoryLedger = Layer.effect(
  Ledger,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    return Ledger.of({
      post: (posting: LedgerPosting) =>
        Effect.flatMap(currentDate, (now) =>
          db.run<{ readonly entry: LedgerEntry; readonly created: boolean }, InsufficientBalance>((s) => {
            const existing = s.ledger.find((e) => e.cause === posting.cause && e.causeId === posting.causeId)
            if (existing !== undefined) return Result.succeed({ entry: existing, created: false })
            const balance = s.balances.get(posting.userId)
            if (balance === undefined) throw new Error(`no ledger account for user ${posting.userId}`)
            const after = balance + posting.amount
            if (after < 0) {
              return Result.fail(
                new InsufficientBalance({
                  userId: posting.userId,
                  balance: balance as Uzs,
                  required: -posting.amount as Uzs
                })
              )
            }
            const entry: LedgerEntry = {
              id: nextId(s, "ledger") as LedgerEntryId,
              userId: posting.userId,
              amount: posting.amount,
              cause: posting.cause,
              causeId: posting.causeId,
              note: posting.note ?? null,
              balanceAfter: after as Uzs,
              createdAt: now
            }
            s.ledger.push(entry)
            s.balances.set(posting.userId, after)
            return Result.succeed({ entry, created: true })
          })
        ),
      balance: (userId: UserId) => db.read((s) => (s.balances.get(userId) ?? 0) as Uzs),
      entries: (userId: UserId, page: PageRequest) =>
        db.read((s) => paginate(s.ledger.filter((e) => e.userId === userId).reverse(), page))
    })
  })
)
