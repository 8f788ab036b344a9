import { assert } from "@effect/vitest"
import {
  type BalanceMovement,
  balanceMovement,
  type LedgerPosting,
  type SignedUzs,
  type UserId,
  type Uzs
} from "@resale/core"
import { Ledger, Users } from "@resale/core/ports"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { booked, identity, newUser, type StoreTest, t0 } from "./support.ts"

const posting = (
  userId: UserId,
  amount: number,
  causeId: string,
  cause: LedgerPosting["cause"] = "adjust"
): BalanceMovement =>
  balanceMovement({
    userId,
    amount: amount as SignedUzs,
    cause,
    causeId
  })

export const usersContract = (test: StoreTest) => {
  test(
    "upsertTelegram creates once per telegram id and refreshes the profile",
    Effect.gen(function* () {
      const users = yield* Users
      const first = yield* users.upsertTelegram(identity(42, "@Alice"), t0)
      const again = yield* users.upsertTelegram({ ...identity(42, "alice_new"), firstName: "Alice" }, t0)
      assert.strictEqual(again.id, first.id)
      assert.strictEqual(first.username, "Alice")
      assert.strictEqual(again.username, "alice_new")
      assert.strictEqual(again.firstName, "Alice")
      assert.strictEqual(again.tier, 0)
      assert.isFalse(again.hasApiKey)
      assert.strictEqual((yield* users.list({ offset: 0, limit: 10 })).total, 1)
      assert.strictEqual(yield* (yield* Ledger).balance(first.id), 0)
    })
  )

  test(
    "finds by id, telegram id, username (case-insensitive, at-sign ignored) and key hash",
    Effect.gen(function* () {
      const users = yield* Users
      const bob = yield* newUser(7, "BobTheBuyer")
      const hash = "ab".repeat(32)
      yield* users.setApiKeyHash(bob.id, hash)
      assert.strictEqual(Option.getOrThrow(yield* users.find(bob.id)).telegramId, 7)
      assert.strictEqual(Option.getOrThrow(yield* users.findByTelegramId(7)).id, bob.id)
      assert.strictEqual(Option.getOrThrow(yield* users.findByUsername("@bobthebuyer")).id, bob.id)
      const byKey = Option.getOrThrow(yield* users.findByApiKeyHash(hash))
      assert.strictEqual(byKey.id, bob.id)
      assert.isTrue(byKey.hasApiKey)
      assert.isTrue(Option.isNone(yield* users.findByUsername("nobody")))
      assert.isTrue(Option.isNone(yield* users.find(999 as UserId)))
      // The key's owner and balance in one read: the ledger's balance.
      assert.deepStrictEqual(Option.getOrThrow(yield* users.balanceByApiKeyHash(hash)), { userId: bob.id, balance: 0 })
      yield* (yield* Ledger).post(posting(bob.id, 1234, "key-balance"))
      assert.deepStrictEqual(Option.getOrThrow(yield* users.balanceByApiKeyHash(hash)), {
        userId: bob.id,
        balance: yield* (yield* Ledger).balance(bob.id)
      })
      // Rotation: the old hash stops matching in the same write.
      yield* users.setApiKeyHash(bob.id, "cd".repeat(32))
      assert.isTrue(Option.isNone(yield* users.findByApiKeyHash(hash)))
      assert.isTrue(Option.isNone(yield* users.balanceByApiKeyHash(hash)))
    })
  )

  test(
    "setTier never lowers, setBotChat links and unlinks, unknown users fail UserNotFound",
    Effect.gen(function* () {
      const users = yield* Users
      const carol = yield* newUser(8)
      assert.strictEqual((yield* users.setTier(carol.id, 2)).tier, 2)
      assert.strictEqual((yield* users.setTier(carol.id, 1)).tier, 2)
      assert.strictEqual((yield* users.setBotChat(carol.id, 555)).botChatId, 555)
      assert.strictEqual((yield* users.setBotChat(carol.id, null)).botChatId, null)
      const missing = yield* Effect.flip(users.setTier(12345 as UserId, 1))
      assert.strictEqual(missing._tag, "UserNotFound")
    })
  )

  test(
    "list searches username and first name and pages newest first with a total",
    Effect.gen(function* () {
      const users = yield* Users
      for (let n = 1; n <= 5; n++) yield* users.upsertTelegram(identity(n, `shopper${n}`), new Date(t0.getTime() + n))
      yield* newUser(6, "other")
      const page = yield* users.list({ search: "SHOPPER", offset: 1, limit: 2 })
      assert.strictEqual(page.total, 5)
      assert.deepStrictEqual(
        page.items.map((u) => u.username),
        ["shopper4", "shopper3"]
      )
      const beyond = yield* users.list({ search: "shopper", offset: 10, limit: 2 })
      assert.strictEqual(beyond.items.length, 0)
      assert.strictEqual(beyond.total, 5)
    })
  )
}

export const ledgerContract = (test: StoreTest) => {
  test(
    "post credits and debits, keeps balanceAfter and the running balance equal to the sum",
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const dave = yield* newUser(1)
      const credit = yield* ledger.post(posting(dave.id, 1000, "t1", "topup"))
      assert.isTrue(credit.created)
      assert.strictEqual(credit.entry.balanceAfter, 1000)
      const debit = yield* ledger.post(posting(dave.id, -300, "o1", "order"))
      assert.strictEqual(debit.entry.amount, -300)
      assert.strictEqual(debit.entry.balanceAfter, 700)
      assert.strictEqual(yield* ledger.balance(dave.id), 700)
      assert.deepStrictEqual(yield* booked(dave.id), { balance: 700, sum: 700, entries: 2 })
      const page = yield* ledger.entries(dave.id, { offset: 0, limit: 10 })
      assert.strictEqual(page.total, 2)
      assert.deepStrictEqual(
        page.items.map((e) => e.causeId),
        ["o1", "t1"]
      )
    })
  )

  test(
    "the same cause posts once: a repeat returns the first entry and moves nothing",
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const erin = yield* newUser(2)
      const first = yield* ledger.post({ ...posting(erin.id, 500, "99", "topup"), note: "card payment" })
      const repeat = yield* ledger.post(posting(erin.id, 700, "99", "topup"))
      assert.isFalse(repeat.created)
      assert.strictEqual(repeat.entry.id, first.entry.id)
      assert.strictEqual(repeat.entry.amount, 500)
      assert.strictEqual(repeat.entry.note, "card payment")
      assert.deepStrictEqual(yield* booked(erin.id), { balance: 500, sum: 500, entries: 1 })
      // The same cause id under another cause is another key.
      assert.isTrue((yield* ledger.post(posting(erin.id, -100, "99", "order"))).created)
    })
  )

  test(
    "a debit below zero fails InsufficientBalance and writes nothing",
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const fay = yield* newUser(3)
      yield* ledger.post(posting(fay.id, 100, "a"))
      const error = yield* Effect.flip(ledger.post(posting(fay.id, -101, "b", "order")))
      assert.strictEqual(error._tag, "InsufficientBalance")
      assert.strictEqual(error.balance, 100)
      assert.strictEqual(error.required, 101)
      assert.deepStrictEqual(yield* booked(fay.id), { balance: 100, sum: 100, entries: 1 })
      // The refused cause was not claimed: it can still be posted once funds allow.
      yield* ledger.post(posting(fay.id, 1, "c"))
      assert.strictEqual((yield* ledger.post(posting(fay.id, -101, "b", "order"))).entry.balanceAfter, 0)
    })
  )

  test(
    "the store applies the movement's own floor: a movement resting on minBalanceAfter 500 stops there",
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const ivy = yield* newUser(6)
      yield* ledger.post(posting(ivy.id, 1_000, "fund"))
      const floored = (amount: number, causeId: string) => ({
        ...posting(ivy.id, amount, causeId),
        minBalanceAfter: 500 as Uzs
      })
      const error = yield* Effect.flip(ledger.post(floored(-501, "below")))
      assert.strictEqual(error._tag, "InsufficientBalance")
      assert.strictEqual(error.required, 1_001)
      assert.deepStrictEqual(yield* booked(ivy.id), { balance: 1_000, sum: 1_000, entries: 1 })
      assert.strictEqual((yield* ledger.post(floored(-500, "at"))).entry.balanceAfter, 500)
    })
  )

  test(
    "a zero amount claims its cause; balance of an unknown user is 0; no account is a defect",
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const gus = yield* newUser(4)
      assert.isTrue((yield* ledger.post(posting(gus.id, 0, "zero"))).created)
      assert.isFalse((yield* ledger.post(posting(gus.id, 5, "zero"))).created)
      assert.strictEqual(yield* ledger.balance(777 as UserId), 0)
      const exit = yield* Effect.exit(ledger.post(posting(777 as UserId, 10, "ghost")))
      assert.isTrue(exit._tag === "Failure" && !exit.cause.reasons.some((r) => r._tag === "Fail"))
    })
  )

  test(
    "entries are insert-only and balances cannot go negative, even by hand",
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const ledger = yield* Ledger
      const hal = yield* newUser(5)
      yield* ledger.post(posting(hal.id, 10, "x"))
      const edit = yield* Effect.flip(sql`UPDATE ledger_entries SET amount_uzs = 1000000`)
      assert.strictEqual(edit._tag, "SqlError")
      const remove = yield* Effect.flip(sql`DELETE FROM ledger_entries`)
      assert.strictEqual(remove._tag, "SqlError")
      const overdraw = yield* Effect.flip(sql`UPDATE accounts SET balance_uzs = -1 WHERE user_id = ${hal.id}`)
      assert.strictEqual(overdraw._tag, "SqlError")
      assert.deepStrictEqual(yield* booked(hal.id), { balance: 10, sum: 10, entries: 1 })
    })
  )
}
