import { Context, type Effect } from "effect"
import type { UserId } from "../ids.ts"

/** What the daily caps count. */
export type CappedAction = "topup.create" | "topup.cancel" | "receipt.upload" | "ticket.create"

/** How many times an account did an action since an instant, and when the oldest of them was. */
export interface ActionCount {
  readonly count: number
  readonly oldest: Date | null
}

/**
 * The log of capped actions per account (`core/caps`). Call `lock` first inside the transaction that
 * checks a cap and writes: it serialises the capped writes of one account until that transaction
 * ends (PG: a transaction-scoped advisory lock), so concurrent requests cannot all pass the check.
 */
export class AccountActivity extends Context.Service<
  AccountActivity,
  {
    readonly lock: (userId: UserId) => Effect.Effect<void>
    readonly countSince: (userId: UserId, action: CappedAction, since: Date) => Effect.Effect<ActionCount>
    readonly record: (userId: UserId, action: CappedAction, at: Date) => Effect.Effect<void>
  }
>()("core/ports/AccountActivity") {}
