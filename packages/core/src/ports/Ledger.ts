import { Context, type Effect } from "effect"
import type { UserId } from "../ids.ts"
import type { BalanceMovement } from "../ledger/BalanceMovement.ts"
import type { LedgerEntry } from "../ledger/LedgerEntry.ts"
import type { InsufficientBalance } from "../ledger/LedgerErrors.ts"
import type { Uzs } from "../money/Uzs.ts"
import type { Page, PageRequest } from "../Page.ts"

/**
 * The insert-only ledger of UZS balances. The balance of a user is the sum of their entries; the
 * adapter may keep a running total on the account row, updated in the same statement as the insert.
 */
export class Ledger extends Context.Service<
  Ledger,
  {
    /**
     * Applies a movement core decided: records its entry and moves the balance, atomically.
     * - (cause, causeId) is unique: posting an already-recorded cause writes nothing and returns the
     *   first entry with `created: false` (even if the amount differs: the first one wins).
     * - only while the balance after it stays at least `minBalanceAfter`; otherwise it fails with
     *   core's `refusalOf` (`InsufficientBalance`) and writes nothing; two concurrent debits can never
     *   both spend the same so'm.
     * - a zero amount is recorded like any other (it still claims its cause).
     * - a user without an account is a defect (accounts are created with users).
     */
    readonly post: (
      movement: BalanceMovement
    ) => Effect.Effect<{ readonly entry: LedgerEntry; readonly created: boolean }, InsufficientBalance>
    /** Current balance; 0 for a user with no entries. */
    readonly balance: (userId: UserId) => Effect.Effect<Uzs>
    /** Newest first. */
    readonly entries: (userId: UserId, page: PageRequest) => Effect.Effect<Page<LedgerEntry>>
  }
>()("core/ports/Ledger") {}
