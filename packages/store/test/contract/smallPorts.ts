import { assert } from "@effect/vitest"
import { balanceMovement, DEFAULT_PRICES, type SignedUzs, type Uzs } from "@resale/core"
import {
  BotUpdates,
  IdempotencyKeys,
  InfoLookups,
  Ledger,
  Outbox,
  Pricing,
  PushSubscriptions,
  Receipts,
  Sessions,
  Transactor
} from "@resale/core/ports"
import { Effect, Option } from "effect"
import { at, booked, minutes, newUser, type StoreTest, t0 } from "./support.ts"

class Boom extends Error {}

export const transactorContract = (test: StoreTest) => {
  test(
    "withTransaction commits all or nothing; a caught inner failure rolls back only the inner part",
    Effect.gen(function* () {
      const tx = yield* Transactor
      const ledger = yield* Ledger
      const user = yield* newUser(1)
      const credit = (causeId: string, amount: number) =>
        ledger.post(balanceMovement({ userId: user.id, amount: amount as SignedUzs, cause: "adjust", causeId }))
      yield* tx.withTransaction(Effect.all([credit("a", 100), credit("b", 200)]))
      const failed = yield* Effect.flip(tx.withTransaction(Effect.andThen(credit("c", 300), Effect.fail(new Boom()))))
      assert.instanceOf(failed, Boom)
      assert.deepStrictEqual(yield* booked(user.id), { balance: 300, sum: 300, entries: 2 })
      yield* tx.withTransaction(
        Effect.gen(function* () {
          yield* credit("d", 1)
          yield* tx.withTransaction(Effect.andThen(credit("e", 1000), Effect.fail(new Boom()))).pipe(Effect.ignore)
          yield* credit("f", 1)
        })
      )
      assert.deepStrictEqual(yield* booked(user.id), { balance: 302, sum: 302, entries: 4 })
      // A defect rolls back as well.
      yield* Effect.exit(tx.withTransaction(Effect.andThen(credit("g", 5), Effect.die("bug"))))
      assert.strictEqual(yield* ledger.balance(user.id), 302)
    })
  )
}

export const smallPortsContract = (test: StoreTest) => {
  test(
    "Pricing: defaults until set, then the last set",
    Effect.gen(function* () {
      const pricing = yield* Pricing
      assert.deepStrictEqual(yield* pricing.get, DEFAULT_PRICES)
      const next = {
        starPriceUzs: 240 as Uzs,
        premium3MonthUzs: 1 as Uzs,
        premium6MonthUzs: 2 as Uzs,
        premium12MonthUzs: 3 as Uzs
      }
      assert.deepStrictEqual(yield* pricing.set(next, t0), next)
      assert.deepStrictEqual(yield* pricing.set({ ...next, starPriceUzs: 250 as Uzs }, at(1)), {
        ...next,
        starPriceUzs: 250 as Uzs
      })
      assert.strictEqual((yield* pricing.get).starPriceUzs, 250)
    })
  )

  test(
    "IdempotencyKeys: new, in progress, replay, conflict, abandon, takeover after 10 minutes",
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys
      assert.deepStrictEqual(yield* keys.begin("user:1", "k1", "orders.stars", "h1", t0), { _tag: "New" })
      assert.deepStrictEqual(yield* keys.begin("user:1", "k1", "orders.stars", "h1", at(1)), { _tag: "InProgress" })
      assert.deepStrictEqual(yield* keys.begin("user:1", "k1", "orders.stars", "h2", at(1)), {
        _tag: "Conflict",
        reason: "OtherRequest"
      })
      assert.deepStrictEqual(yield* keys.begin("user:2", "k1", "orders.stars", "h2", at(1)), { _tag: "New" })
      yield* keys.complete("user:1", "k1", { order_id: 7, ok: true }, at(2))
      assert.deepStrictEqual(yield* keys.begin("user:1", "k1", "orders.stars", "h1", at(3)), {
        _tag: "Replay",
        response: { order_id: 7, ok: true }
      })
      assert.deepStrictEqual(yield* keys.begin("user:1", "k1", "orders.stars", "h2", at(3)), {
        _tag: "Conflict",
        reason: "OtherRequest"
      })
      yield* keys.abandon("user:2", "k1")
      assert.deepStrictEqual(yield* keys.begin("user:2", "k1", "orders.stars", "h3", at(4)), { _tag: "New" })
      assert.deepStrictEqual(yield* keys.begin("user:2", "k1", "orders.stars", "h3", at(minutes(10) + 3)), {
        _tag: "InProgress"
      })
      assert.deepStrictEqual(yield* keys.begin("user:2", "k1", "orders.stars", "h3", at(minutes(10) + 4)), {
        _tag: "New"
      })
      // Abandon leaves completed keys alone.
      yield* keys.abandon("user:1", "k1")
      assert.strictEqual((yield* keys.begin("user:1", "k1", "orders.stars", "h1", at(5)))._tag, "Replay")
    })
  )

  test(
    "IdempotencyKeys: one key per owner across endpoints; expired after 24 hours and pruned",
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys
      assert.deepStrictEqual(yield* keys.begin("user:5", "k", "orders.stars", "h", t0), { _tag: "New" })
      yield* keys.complete("user:5", "k", { ok: true }, at(1))
      // The same key and even the same body on another endpoint: a conflict, never a second request.
      assert.deepStrictEqual(yield* keys.begin("user:5", "k", "orders.premium", "h", at(2)), {
        _tag: "Conflict",
        reason: "OtherEndpoint"
      })
      assert.deepStrictEqual(yield* keys.begin("user:5", "k", "orders.premium", "h2", at(2)), {
        _tag: "Conflict",
        reason: "OtherEndpoint"
      })
      assert.strictEqual(
        (yield* keys.begin("user:5", "k", "orders.stars", "h", at(minutes(24 * 60) - 1)))._tag,
        "Replay"
      )
      // After 24 hours the key is free again, for any request.
      assert.deepStrictEqual(yield* keys.begin("user:5", "k", "orders.premium", "h2", at(minutes(24 * 60) + 1)), {
        _tag: "New"
      })
      assert.deepStrictEqual(yield* keys.begin("user:6", "old", "orders.stars", "h", t0), { _tag: "New" })
      assert.strictEqual(yield* keys.prune(at(minutes(60))), 1)
      assert.deepStrictEqual(yield* keys.begin("user:6", "old", "orders.gift", "x", at(minutes(61))), { _tag: "New" })
      assert.deepStrictEqual(yield* keys.begin("user:5", "k", "orders.premium", "h2", at(minutes(24 * 60) + 2)), {
        _tag: "InProgress"
      })
    })
  )

  test(
    "Sessions: create, find while unexpired, remove, removeExpired",
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const user = yield* newUser(2)
      yield* sessions.create({
        id: "s-user",
        subject: { kind: "user", userId: user.id },
        createdAt: t0,
        expiresAt: at(minutes(60))
      })
      yield* sessions.create({ id: "s-op", subject: { kind: "operator" }, createdAt: t0, expiresAt: at(minutes(5)) })
      assert.deepStrictEqual(Option.getOrThrow(yield* sessions.find("s-user", at(1))).subject, {
        kind: "user",
        userId: user.id
      })
      assert.deepStrictEqual(Option.getOrThrow(yield* sessions.find("s-op", at(1))).subject, { kind: "operator" })
      assert.isTrue(Option.isNone(yield* sessions.find("s-op", at(minutes(5)))))
      assert.strictEqual(yield* sessions.removeExpired(at(minutes(5))), 1)
      yield* sessions.remove("s-user")
      yield* sessions.remove("s-user")
      assert.isTrue(Option.isNone(yield* sessions.find("s-user", at(1))))
    })
  )

  test(
    "Sessions: a sign-in payload is claimed once; the claim is swept when it expires",
    Effect.gen(function* () {
      const sessions = yield* Sessions
      assert.isTrue(yield* sessions.claimLogin("payload-a", at(minutes(10))))
      assert.isFalse(yield* sessions.claimLogin("payload-a", at(minutes(10))))
      assert.isTrue(yield* sessions.claimLogin("payload-b", at(minutes(10))))
      yield* sessions.removeExpired(at(minutes(9)))
      assert.isFalse(yield* sessions.claimLogin("payload-a", at(minutes(20))))
      yield* sessions.removeExpired(at(minutes(10)))
      assert.isTrue(yield* sessions.claimLogin("payload-b", at(minutes(30))))
    })
  )

  test(
    "BotUpdates: true the first time only",
    Effect.gen(function* () {
      const updates = yield* BotUpdates
      assert.isTrue(yield* updates.markSeen(1001, t0))
      assert.isFalse(yield* updates.markSeen(1001, at(1)))
      assert.isTrue(yield* updates.markSeen(1002, at(1)))
    })
  )

  test(
    "PushSubscriptions: an endpoint keeps its owner (keys replaced for it only), the newest `keep` stay; remove is idempotent",
    Effect.gen(function* () {
      const push = yield* PushSubscriptions
      const ann = yield* newUser(3)
      const ben = yield* newUser(4)
      const endpoint = "https://push.example.test/ep/1"
      assert.strictEqual(
        yield* push.upsert({ userId: ann.id, endpoint, p256dh: "key-1", auth: "auth-1", createdAt: t0 }, 3),
        "stored"
      )
      assert.strictEqual(
        yield* push.upsert({ userId: ben.id, endpoint, p256dh: "key-2", auth: "auth-2", createdAt: at(1) }, 3),
        "taken"
      )
      assert.strictEqual((yield* push.listByUser(ben.id)).length, 0)
      assert.deepStrictEqual(
        (yield* push.listByUser(ann.id)).map((s) => s.p256dh),
        ["key-1"]
      )
      assert.strictEqual(
        yield* push.upsert({ userId: ann.id, endpoint, p256dh: "key-3", auth: "auth-3", createdAt: at(2) }, 3),
        "stored"
      )
      assert.deepStrictEqual(
        (yield* push.listByUser(ann.id)).map((s) => s.p256dh),
        ["key-3"]
      )
      for (let n = 2; n <= 5; n++) {
        yield* push.upsert(
          { userId: ann.id, endpoint: `${endpoint}${n}`, p256dh: `k${n}`, auth: "a", createdAt: at(10 + n) },
          3
        )
      }
      assert.deepStrictEqual(
        (yield* push.listByUser(ann.id)).map((s) => s.p256dh),
        ["k3", "k4", "k5"]
      )
      yield* push.remove(`${endpoint}5`)
      yield* push.remove(`${endpoint}5`)
      assert.strictEqual((yield* push.listByUser(ann.id)).length, 2)
    })
  )

  test(
    "Outbox: add, claim with a lease, deliver, retry later or fail for good",
    Effect.gen(function* () {
      const outbox = yield* Outbox
      const user = yield* newUser(5)
      const a = yield* outbox.add({ kind: "topup.paid", userId: user.id, payload: { topupId: 1, amountUzs: 5000 } }, t0)
      const b = yield* outbox.add(
        { kind: "payment.unmatched", userId: null, payload: { paymentId: 2, note: null } },
        at(1)
      )
      assert.strictEqual(a.status, "pending")
      assert.deepStrictEqual(a.payload, { topupId: 1, amountUzs: 5000 })
      const claimed = yield* outbox.claim(at(2), 10, 30_000)
      assert.deepStrictEqual(
        claimed.map((e) => e.id),
        [a.id, b.id]
      )
      assert.strictEqual((yield* outbox.claim(at(3), 10, 30_000)).length, 0)
      yield* outbox.markDelivered(a.id, at(4))
      yield* outbox.markFailed(b.id, "push service 500", at(60_000))
      assert.strictEqual((yield* outbox.claim(at(40_000), 10, 30_000)).length, 0)
      const retried = yield* outbox.claim(at(60_000), 10, 30_000)
      assert.deepStrictEqual(
        retried.map((e) => [e.id, e.attempts, e.lastError]),
        [[b.id, 1, "push service 500"]]
      )
      yield* outbox.markFailed(b.id, "gone", null)
      assert.strictEqual((yield* outbox.claim(at(200_000), 10, 30_000)).length, 0)
    })
  )

  test(
    "InfoLookups: counts per user and day up to the limit",
    Effect.gen(function* () {
      const lookups = yield* InfoLookups
      const user = yield* newUser(6)
      assert.strictEqual(yield* lookups.count(user.id, "2026-01-01"), 0)
      assert.strictEqual(yield* lookups.take(user.id, "2026-01-01", 2), 1)
      assert.strictEqual(yield* lookups.take(user.id, "2026-01-01", 2), 2)
      const over = yield* Effect.flip(lookups.take(user.id, "2026-01-01", 2))
      assert.strictEqual(over._tag, "InfoLookupQuotaExceeded")
      assert.strictEqual(yield* lookups.count(user.id, "2026-01-01"), 2)
      assert.strictEqual(yield* lookups.take(user.id, "2026-01-02", 2), 1)
    })
  )

  test(
    "Receipts: bytes and content type round-trip; unknown keys are none",
    Effect.gen(function* () {
      const receipts = yield* Receipts
      const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 1])
      yield* receipts.put("receipts/1/a", bytes, "image/png")
      const got = Option.getOrThrow(yield* receipts.get("receipts/1/a"))
      assert.deepStrictEqual([...got.bytes], [...bytes])
      assert.strictEqual(got.contentType, "image/png")
      assert.isTrue(Option.isNone(yield* receipts.get("receipts/1/missing")))
    })
  )
}
