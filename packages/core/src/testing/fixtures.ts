import { Effect } from "effect"
import { Accounts } from "../accounts/Accounts.ts"
import type { User } from "../accounts/User.ts"
import { Balances } from "../ledger/Balances.ts"

/** Test helpers over the use-case services (they work with any port implementation). */

let telegramIds = 1_000_000

/** Signs up a fresh user through `Accounts.signIn`. */
export const signUp = (username?: string): Effect.Effect<User, never, Accounts> =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const telegramId = ++telegramIds
    return yield* accounts.signIn({
      telegramId,
      username: username ?? `user${telegramId}`,
      firstName: "Test",
      photoUrl: null
    })
  })

let fundKeys = 0

/** Credits `amount` so'm to a user with an operator adjustment. */
export const fund = (user: User, amount: number): Effect.Effect<void, never, Balances> =>
  Effect.gen(function* () {
    const balances = yield* Balances
    yield* balances
      .adjust({ userId: user.id, amount, reason: "test funding", key: `fund-${++fundKeys}` })
      .pipe(Effect.orDie)
  })
