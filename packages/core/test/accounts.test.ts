import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { Accounts } from "../src/accounts/Accounts.ts"
import { Balances } from "../src/ledger/Balances.ts"
import { fund, signUp } from "../src/testing/fixtures.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"

describe("Accounts sign-in", () => {
  it.effect("creates the user once per Telegram id and refreshes the profile", () =>
    Effect.gen(function* () {
      const accounts = yield* Accounts
      const first = yield* accounts.signIn({ telegramId: 42, username: "@Alice", firstName: "Alice", photoUrl: null })
      const again = yield* accounts.signIn({
        telegramId: 42,
        username: "alice_new",
        firstName: "A.",
        photoUrl: "https://t.me/i/a.jpg"
      })
      assert.strictEqual(again.id, first.id)
      assert.deepStrictEqual(
        [first.username, again.username, again.firstName, again.tier],
        ["Alice", "alice_new", "A.", 0]
      )
      assert.strictEqual((yield* accounts.findByUsername("@ALICE_NEW")).id, first.id)
      assert.strictEqual((yield* Effect.flip(accounts.findByUsername("nobody")))._tag, "UserNotFound")
      assert.strictEqual(yield* (yield* Balances).balance(first.id), 0)
      assert.strictEqual((yield* accounts.list({ search: "alice", offset: 0, limit: 10 })).total, 1)
      const linked = yield* accounts.linkBotChat(first.id, 777)
      assert.strictEqual(linked.botChatId, 777)
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("Accounts API keys", () => {
  it.effect("rotate returns an rk_ key once, stores only its hash; rotation revokes the old key", () =>
    Effect.gen(function* () {
      const accounts = yield* Accounts
      const alice = yield* signUp()
      const { apiKey, user } = yield* accounts.rotateApiKey(alice.id)
      const clear = Redacted.value(apiKey)
      assert.match(clear, /^rk_[A-Za-z0-9_-]{43}$/)
      assert.isTrue(user.hasApiKey)
      assert.notInclude(String(apiKey), clear)
      const db = yield* MemoryDb
      const stored = db.state().users.get(alice.id)!.apiKeyHash!
      assert.match(stored, /^[0-9a-f]{64}$/)
      assert.notInclude(JSON.stringify([...db.state().users.values()]), clear)
      assert.strictEqual((yield* accounts.authenticate(clear)).id, alice.id)
      assert.strictEqual((yield* accounts.authenticate(apiKey)).id, alice.id)
      const next = yield* accounts.rotateApiKey(alice.id)
      assert.notStrictEqual(Redacted.value(next.apiKey), clear)
      assert.strictEqual((yield* Effect.flip(accounts.authenticate(clear)))._tag, "ApiKeyInvalid")
      assert.strictEqual((yield* accounts.authenticate(next.apiKey)).id, alice.id)
      // The balance by key authenticates the same way: the rotated key is refused at once.
      assert.strictEqual((yield* Effect.flip(accounts.balanceByApiKey(clear)))._tag, "ApiKeyInvalid")
      assert.deepStrictEqual(yield* accounts.balanceByApiKey(next.apiKey), { userId: alice.id, balance: 0 })
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("missing, malformed and unknown keys are ApiKeyInvalid", () =>
    Effect.gen(function* () {
      const accounts = yield* Accounts
      const bad = yield* Effect.all([
        Effect.flip(accounts.authenticate(undefined)),
        Effect.flip(accounts.authenticate("")),
        Effect.flip(accounts.authenticate("not-a-key")),
        Effect.flip(accounts.authenticate(`rk_${"A".repeat(43)}`)),
        Effect.flip(accounts.balanceByApiKey(undefined)),
        Effect.flip(accounts.balanceByApiKey("not-a-key")),
        Effect.flip(accounts.balanceByApiKey(`rk_${"A".repeat(43)}`))
      ])
      assert.deepStrictEqual(
        bad.map((e) => e._tag),
        Array(7).fill("ApiKeyInvalid")
      )
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("Accounts tiers and lookups", () => {
  it.effect("an upgrade is paid from the balance once; only upgrades to known tiers", () =>
    Effect.gen(function* () {
      const accounts = yield* Accounts
      const balances = yield* Balances
      const alice = yield* signUp()
      const short = yield* Effect.flip(accounts.upgradeTier(alice.id, 1))
      assert.strictEqual(short._tag, "InsufficientBalance")
      assert.strictEqual((yield* accounts.find(alice.id)).tier, 0)
      yield* fund(alice, 260_000)
      const up = yield* accounts.upgradeTier(alice.id, 1)
      assert.deepStrictEqual([up.user.tier, up.chargedUzs], [1, 50_000])
      assert.strictEqual(yield* balances.balance(alice.id), 210_000)
      const same = yield* Effect.flip(accounts.upgradeTier(alice.id, 1))
      assert.deepStrictEqual(
        [same._tag, same._tag === "TierUpgradeInvalid" && same.reason],
        ["TierUpgradeInvalid", "NotAnUpgrade"]
      )
      const unknown = yield* Effect.flip(accounts.upgradeTier(alice.id, 3))
      assert.strictEqual(unknown._tag === "TierUpgradeInvalid" && unknown.reason, "UnknownTier")
      const top = yield* accounts.upgradeTier(alice.id, 2)
      assert.deepStrictEqual([top.user.tier, top.chargedUzs], [2, 200_000])
      assert.strictEqual(yield* balances.balance(alice.id), 10_000)
      assert.strictEqual((yield* Effect.flip(accounts.upgradeTier(alice.id, 1)))._tag, "TierUpgradeInvalid")
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("info lookups: 10 a day on tier 0, 100 on tier 1, reset at UTC midnight", () =>
    Effect.gen(function* () {
      const accounts = yield* Accounts
      const alice = yield* signUp()
      for (let i = 1; i <= 10; i++) assert.strictEqual((yield* accounts.takeInfoLookup(alice.id)).used, i)
      const over = yield* Effect.flip(accounts.takeInfoLookup(alice.id))
      assert.deepStrictEqual(
        [over._tag, over._tag === "InfoLookupQuotaExceeded" && over.limit],
        ["InfoLookupQuotaExceeded", 10]
      )
      assert.deepStrictEqual(yield* accounts.lookupUsage(alice.id), { tier: 0, day: "1970-01-01", used: 10, limit: 10 })
      yield* fund(alice, 50_000)
      yield* accounts.upgradeTier(alice.id, 1)
      assert.deepStrictEqual((yield* accounts.takeInfoLookup(alice.id)).limit, 100)
      yield* TestClock.adjust("24 hours")
      const fresh = yield* accounts.takeInfoLookup(alice.id)
      assert.deepStrictEqual([fresh.day, fresh.used], ["1970-01-02", 1])
    }).pipe(Effect.provide(layerMemory))
  )
})
