/**
 * What only real PostgreSQL can show (PGlite runs one statement at a time): under concurrent callers,
 * through the core's own services, no so'm is spent twice, no payment is credited twice, no payable
 * amount is handed out twice and no order is claimed twice.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  Balances,
  balanceMovement,
  chargeCauseId,
  OrderService,
  type OrderId,
  Payments,
  type SignedUzs,
  TopupService,
  type UserId,
  type Uzs
} from "@resale/core"
import { BotUpdates, IdempotencyKeys, InfoLookups, Ledger, Orders, Pricing, Transactor } from "@resale/core/ports"
import { Effect, Layer, Option, Result } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { PgStore } from "../src/PgStore.ts"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import { booked, newUser, t0 } from "./contract/support.ts"

// A fresh database per test, a pool big enough for real contention, and the core services on top.
const Live = Layer.mergeAll(Balances.layer, OrderService.layer, Payments.layer, TopupService.layer).pipe(
  Layer.provideMerge(PgStore.layer.pipe(Layer.provideMerge(IsolatedPostgres.make(16))))
)

// Stars at 2 so'm each: an order of 50 stars (the minimum) costs 100.
const cheapStars = Pricing.use((p) =>
  p.set(
    { starPriceUzs: 2 as Uzs, premium3MonthUzs: 1 as Uzs, premium6MonthUzs: 1 as Uzs, premium12MonthUzs: 1 as Uzs },
    t0
  )
)

const fund = (userId: UserId, amount: number, key: string) =>
  Balances.use((b) => b.adjust({ userId, amount, reason: "test funding", key })).pipe(Effect.orDie)

const buyStars = (userId: UserId, stars: number) =>
  OrderService.use((o) => o.create(userId, { kind: "stars", recipient: "durov", stars }))

/** Every entry's balance_after is the running sum of the user's entries in id order, and never negative. */
const consistentHistory = (userId: UserId) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ amount_uzs: bigint; balance_after_uzs: bigint }>`
      SELECT amount_uzs, balance_after_uzs FROM ledger_entries WHERE user_id = ${userId} ORDER BY id`
    let running = 0n
    for (const row of rows) {
      running += row.amount_uzs
      if (running !== row.balance_after_uzs || running < 0n) return false
    }
    return true
  }).pipe(Effect.orDie)

describe("store under concurrency (real PostgreSQL)", () => {
  it.effect(
    "50 concurrent debits of 100 on a balance of 1,000: exactly 10 succeed",
    () =>
      Effect.gen(function* () {
        yield* cheapStars
        const user = yield* newUser(1)
        yield* fund(user.id, 1000, "seed")
        const results = yield* Effect.all(
          Array.from({ length: 50 }, () => Effect.result(buyStars(user.id, 50))),
          {
            concurrency: "unbounded"
          }
        )
        const failures = results.filter(Result.isFailure).map((r) => r.failure._tag)
        assert.strictEqual(results.filter(Result.isSuccess).length, 10)
        assert.deepStrictEqual([...new Set(failures)], ["InsufficientBalance"])
        assert.strictEqual(yield* Ledger.use((l) => l.balance(user.id)), 0)
        assert.deepStrictEqual(yield* booked(user.id), { balance: 0, sum: 0, entries: 11 })
        // A refused debit rolled its order back too: orders and charges match one to one, by cause id.
        const placed = yield* Orders.use((o) => o.list({ userId: user.id, offset: 0, limit: 100 }))
        assert.strictEqual(placed.total, 10)
        const sql = yield* SqlClient
        const charges = yield* sql<{ cause_id: string; amount_uzs: bigint }>`
        SELECT cause_id, amount_uzs FROM ledger_entries WHERE user_id = ${user.id} AND cause = 'order'`.pipe(
          Effect.orDie
        )
        assert.deepStrictEqual(
          charges.map((c) => c.cause_id).sort(),
          placed.items.map((order) => chargeCauseId(order, 0)).sort()
        )
        assert.isTrue(charges.every((c) => c.amount_uzs === -100n))
        assert.isTrue(yield* consistentHistory(user.id))
      }).pipe(Effect.provide(Live)),
    60_000
  )

  it.effect(
    "the same bank message posted 10 times concurrently credits its top-up once",
    () =>
      Effect.gen(function* () {
        const user = yield* newUser(2)
        const topup = yield* TopupService.use((t) => t.create(user.id, 50_000))
        const results = yield* Effect.all(
          Array.from({ length: 10 }, () =>
            Payments.use((p) => p.incoming({ amountUzs: topup.payableUzs, cardLast4: "4242", externalId: "sms-777" }))
          ),
          { concurrency: "unbounded" }
        )
        const outcomes = results.map((r) => r.outcome).sort()
        assert.deepStrictEqual(outcomes, [
          "duplicate",
          "duplicate",
          "duplicate",
          "duplicate",
          "duplicate",
          "duplicate",
          "duplicate",
          "duplicate",
          "duplicate",
          "matched"
        ])
        assert.strictEqual(new Set(results.map((r) => r.payment.id)).size, 1)
        assert.deepStrictEqual(yield* booked(user.id), { balance: topup.payableUzs, sum: topup.payableUzs, entries: 1 })
        const paid = yield* Payments.use((p) => p.find(results[0]!.payment.id))
        assert.strictEqual(paid.status, "matched")
        assert.strictEqual(paid.topupId, topup.id)
      }).pipe(Effect.provide(Live)),
    60_000
  )

  it.effect(
    "10 different payments of one payable amount at once: one confirms the top-up, nine stay unmatched",
    () =>
      Effect.gen(function* () {
        const user = yield* newUser(3)
        const topup = yield* TopupService.use((t) => t.create(user.id, 20_000))
        const results = yield* Effect.all(
          Array.from({ length: 10 }, (_, n) =>
            Payments.use((p) => p.incoming({ amountUzs: topup.payableUzs, externalId: `sms-${n}` }))
          ),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter((r) => r.outcome === "matched").length, 1)
        assert.strictEqual(results.filter((r) => r.outcome === "unmatched").length, 9)
        assert.deepStrictEqual(yield* booked(user.id), { balance: topup.payableUzs, sum: topup.payableUzs, entries: 1 })
      }).pipe(Effect.provide(Live)),
    60_000
  )

  it.effect(
    "20 concurrent top-ups of the same amount get 20 distinct payable amounts",
    () =>
      Effect.gen(function* () {
        const users = yield* Effect.forEach([10, 11, 12, 13, 14, 15, 16, 17, 18, 19], (n) => newUser(n))
        const topups = yield* Effect.all(
          Array.from({ length: 20 }, (_, n) => TopupService.use((t) => t.create(users[n % 10]!.id, 100_000))),
          { concurrency: "unbounded" }
        )
        const payables = topups.map((t) => t.payableUzs).sort((a, b) => a - b)
        assert.deepStrictEqual(
          payables,
          Array.from({ length: 20 }, (_, n) => 100_000 + n)
        )
        assert.isTrue(topups.every((t) => t.status === "pending" && t.requestedUzs === 100_000))
      }).pipe(Effect.provide(Live)),
    60_000
  )

  it.effect(
    "200 random concurrent credits, debits and refunds over 10 users: balances equal their entries, never below zero",
    () =>
      Effect.gen(function* () {
        yield* cheapStars
        const users = yield* Effect.forEach(
          Array.from({ length: 10 }, (_, n) => 100 + n),
          (n) => newUser(n)
        )
        for (const [n, user] of users.entries()) yield* fund(user.id, 300 + 50 * n, `seed-${n}`)
        // Deterministic pseudo-random choices (a fixed LCG), so a failure can be replayed.
        let seed = 20260101
        const random = (below: number) => {
          seed = (seed * 1103515245 + 12345) % 2147483648
          return seed % below
        }
        const operations = Array.from({ length: 200 }, (_, n) => {
          const user = users[random(users.length)]!
          const kind = random(3)
          if (kind === 0) return fund(user.id, 1 + random(400), `credit-${n}`).pipe(Effect.as(1))
          // A debit; a third of them are then failed by the worker and refunded, twice at once.
          const stars = 50 + random(150)
          const refund = random(3) === 0
          return buyStars(user.id, stars).pipe(
            Effect.flatMap((order) =>
              refund
                ? Effect.all(
                    [0, 1].map(() => Effect.result(OrderService.use((o) => o.fail(order.id, "marketplace refused")))),
                    {
                      concurrency: 2
                    }
                  ).pipe(Effect.map((r) => (r.filter(Result.isSuccess).length === 1 ? 3 : -1)))
                : Effect.succeed(2)
            ),
            Effect.catchTag("InsufficientBalance", () => Effect.succeed(0))
          )
        })
        const outcomes = yield* Effect.all(operations, { concurrency: "unbounded" })
        assert.notInclude(outcomes, -1, "an order was refunded twice or never")
        assert.isAbove(outcomes.filter((o) => o === 0).length, 0, "some debits should have been refused")
        assert.isAbove(outcomes.filter((o) => o === 3).length, 0, "some debits should have been refunded")
        const sql = yield* SqlClient
        for (const user of users) {
          const { balance, sum } = yield* booked(user.id)
          assert.strictEqual(balance, sum)
          assert.isTrue(yield* consistentHistory(user.id))
          // Every order still holding its charge, and nothing else, is missing from the funding.
          const [row] = yield* sql<{ funded: bigint; held: bigint }>`
          SELECT (SELECT coalesce(sum(amount_uzs), 0) FROM ledger_entries WHERE user_id = ${user.id} AND cause = 'adjust')::bigint AS funded,
                 (SELECT coalesce(sum(price_uzs), 0) FROM orders WHERE user_id = ${user.id} AND status <> 'failed')::bigint AS held`
          assert.strictEqual(balance, Number(row!.funded - row!.held))
        }
        const [refunds] = yield* sql<{ n: bigint }>`
        SELECT count(*) AS n FROM ledger_entries e JOIN orders o ON e.cause_id = o.id::text WHERE e.cause = 'refund'`
        assert.strictEqual(Number(refunds!.n), outcomes.filter((o) => o === 3).length)
      }).pipe(Effect.provide(Live)),
    120_000
  )

  it.effect(
    "concurrent claimNext never hands out the same order twice",
    () =>
      Effect.gen(function* () {
        const user = yield* newUser(200)
        const orders = yield* Orders
        const tx = yield* Transactor
        const sql = yield* SqlClient
        const ids = yield* Effect.forEach(Array.from({ length: 20 }), () =>
          orders
            .insert(
              { userId: user.id, recipient: "durov", item: { kind: "stars", stars: 50 }, priceUzs: 100 as Uzs },
              t0
            )
            .pipe(Effect.map((o) => o.id))
        )
        // Each worker holds its claim's row lock a little while, so the others must skip past it.
        const worker = Effect.gen(function* () {
          const mine: Array<OrderId> = []
          while (true) {
            const next = yield* tx.withTransaction(
              Effect.gen(function* () {
                const claimed = yield* orders.claimNext(new Date(t0.getTime() + 1))
                yield* sql`SELECT pg_sleep(0.005)`.pipe(Effect.orDie)
                return claimed
              })
            )
            if (Option.isNone(next)) return mine
            mine.push(next.value.id)
          }
        })
        const claims = yield* Effect.all([worker, worker, worker, worker], { concurrency: "unbounded" })
        const all = claims.flat()
        assert.strictEqual(all.length, 20)
        assert.deepStrictEqual(
          [...all].sort((a, b) => a - b),
          [...ids].sort((a, b) => a - b)
        )
        assert.isAbove(claims.filter((c) => c.length > 0).length, 1, "the work should have been shared")
        assert.strictEqual((yield* orders.list({ status: ["processing"], offset: 0, limit: 100 })).total, 20)
      }).pipe(Effect.provide(Live)),
    60_000
  )
  it.effect(
    "concurrent claimDue never hands out the same order twice",
    () =>
      Effect.gen(function* () {
        const user = yield* newUser(200)
        const orders = yield* Orders
        const tx = yield* Transactor
        const sql = yield* SqlClient
        const ids = yield* Effect.forEach(Array.from({ length: 20 }), () =>
          orders
            .insert(
              { userId: user.id, recipient: "durov", item: { kind: "stars", stars: 50 }, priceUzs: 100 as Uzs },
              t0
            )
            .pipe(Effect.map((o) => o.id))
        )
        // Each worker holds its claim's row lock a little while, so the others must skip past it.
        const worker = Effect.gen(function* () {
          const mine: Array<OrderId> = []
          while (true) {
            const next = yield* tx.withTransaction(
              Effect.gen(function* () {
                const claimed = yield* orders.claimDue(new Date(t0.getTime() + 1), 3)
                yield* sql`SELECT pg_sleep(0.005)`.pipe(Effect.orDie)
                return claimed
              })
            )
            if (next.length === 0) return mine
            mine.push(...next.map((o) => o.id))
          }
        })
        const claims = yield* Effect.all([worker, worker, worker, worker], { concurrency: "unbounded" })
        const all = claims.flat()
        assert.strictEqual(all.length, 20)
        assert.deepStrictEqual(
          [...all].sort((a, b) => a - b),
          [...ids].sort((a, b) => a - b)
        )
        assert.isAbove(claims.filter((c) => c.length > 0).length, 1, "the work should have been shared")
        assert.strictEqual((yield* orders.list({ status: ["processing"], offset: 0, limit: 100 })).total, 20)
      }).pipe(Effect.provide(Live)),
    60_000
  )
  it.effect(
    "a transaction PostgreSQL picks as deadlock victim is run again, and both transfers happen once",
    () =>
      Effect.gen(function* () {
        const tx = yield* Transactor
        const ledger = yield* Ledger
        const sql = yield* SqlClient
        const ann = yield* newUser(300)
        const ben = yield* newUser(301)
        yield* fund(ann.id, 1000, "seed-ann")
        yield* fund(ben.id, 1000, "seed-ben")
        let attempts = 0
        // Each takes its first account's row lock, waits, then wants the other's: a lock cycle.
        const transfer = (from: UserId, to: UserId, id: string) =>
          tx.withTransaction(
            Effect.gen(function* () {
              attempts++
              yield* ledger.post(
                balanceMovement({ userId: from, amount: -100 as SignedUzs, cause: "adjust", causeId: `${id}-out` })
              )
              yield* sql`SELECT pg_sleep(0.3)`.pipe(Effect.orDie)
              yield* ledger.post(
                balanceMovement({ userId: to, amount: 100 as SignedUzs, cause: "adjust", causeId: `${id}-in` })
              )
            })
          )
        yield* Effect.all([transfer(ann.id, ben.id, "t1"), transfer(ben.id, ann.id, "t2")], { concurrency: 2 })
        // At least one victim ran again (an immediate retry may lose the race once more).
        assert.isAtLeast(attempts, 3, "one of the two should have been the deadlock victim and run again")
        assert.deepStrictEqual(yield* booked(ann.id), { balance: 1000, sum: 1000, entries: 3 })
        assert.deepStrictEqual(yield* booked(ben.id), { balance: 1000, sum: 1000, entries: 3 })
      }).pipe(Effect.provide(Live)),
    60_000
  )
  it.effect(
    "first-wins keys hold under concurrency: sign-in, bot update, idempotency key, lookup quota",
    () =>
      Effect.gen(function* () {
        const many = <A, E, R>(n: number, f: () => Effect.Effect<A, E, R>) =>
          Effect.all(Array.from({ length: n }, f), { concurrency: "unbounded" })
        const users = yield* many(10, () => newUser(400, "same_person"))
        assert.strictEqual(new Set(users.map((u) => u.id)).size, 1)
        assert.deepStrictEqual(yield* booked(users[0]!.id), { balance: 0, sum: 0, entries: 0 })
        const seen = yield* many(10, () => BotUpdates.use((b) => b.markSeen(777, t0)))
        assert.strictEqual(seen.filter(Boolean).length, 1)
        const begun = yield* many(10, () =>
          IdempotencyKeys.use((k) => k.begin("user:400", "key-1", "orders.stars", "hash", t0))
        )
        assert.strictEqual(begun.filter((b) => b._tag === "New").length, 1)
        assert.strictEqual(begun.filter((b) => b._tag === "InProgress").length, 9)
        const lookups = yield* many(20, () =>
          Effect.result(InfoLookups.use((l) => l.take(users[0]!.id, "2026-01-01", 5)))
        )
        assert.strictEqual(lookups.filter(Result.isSuccess).length, 5)
        assert.strictEqual(yield* InfoLookups.use((l) => l.count(users[0]!.id, "2026-01-01")), 5)
      }).pipe(Effect.provide(Live)),
    60_000
  )
})
