import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import fc from "fast-check"
import type { UserId } from "../src/ids.ts"
import { Balances } from "../src/ledger/Balances.ts"
import { OrderService } from "../src/orders/OrderService.ts"
import { Ledger } from "../src/ports/Ledger.ts"
import { balanceMovement } from "../src/ledger/BalanceMovement.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { fund, signUp } from "../src/testing/fixtures.ts"
import { SignedUzs } from "../src/money/Uzs.ts"

const post = (userId: UserId, amount: number, cause: "topup" | "order" | "refund" | "adjust", causeId: string) =>
  Effect.flatMap(Ledger, (ledger) =>
    ledger.post(balanceMovement({ userId, amount: SignedUzs.make(amount), cause, causeId }))
  )

const sumOfEntries = (userId: UserId) =>
  Effect.map(MemoryDb, (db) =>
    db
      .state()
      .ledger.filter((e) => e.userId === userId)
      .reduce((sum, e) => sum + e.amount, 0)
  )

describe("Ledger", () => {
  it.effect("posting the same cause twice moves money once and returns the first entry", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const alice = yield* signUp()
      const first = yield* post(alice.id, 5000, "topup", "1")
      const second = yield* post(alice.id, 9999, "topup", "1")
      assert.isTrue(first.created)
      assert.isFalse(second.created)
      assert.strictEqual(second.entry.id, first.entry.id)
      assert.strictEqual(second.entry.amount, 5000)
      assert.strictEqual(yield* ledger.balance(alice.id), 5000)
      assert.strictEqual((yield* ledger.entries(alice.id, { offset: 0, limit: 10 })).total, 1)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("a debit below zero fails InsufficientBalance and writes nothing", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const alice = yield* signUp()
      yield* post(alice.id, 1000, "topup", "7")
      const error = yield* Effect.flip(post(alice.id, -1001, "order", "3"))
      assert.strictEqual(error._tag, "InsufficientBalance")
      assert.strictEqual(error.balance, 1000)
      assert.strictEqual(error.required, 1001)
      assert.strictEqual(yield* ledger.balance(alice.id), 1000)
      assert.strictEqual((yield* ledger.entries(alice.id, { offset: 0, limit: 10 })).total, 1)
      // the cause was not claimed by the failed attempt
      assert.isTrue((yield* post(alice.id, -1000, "order", "3")).created)
      assert.strictEqual(yield* ledger.balance(alice.id), 0)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("two concurrent debits cannot both spend the same so'm", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const alice = yield* signUp()
      yield* post(alice.id, 1000, "topup", "1")
      const results = yield* Effect.all([post(alice.id, -600, "order", "1"), post(alice.id, -600, "order", "2")], {
        concurrency: 2,
        mode: "result"
      })
      assert.strictEqual(results.filter(Result.isSuccess).length, 1)
      assert.strictEqual(yield* ledger.balance(alice.id), 400)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("entries are newest first and carry the running balance", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const alice = yield* signUp()
      yield* post(alice.id, 1000, "topup", "1")
      yield* post(alice.id, -300, "order", "1")
      yield* post(alice.id, 300, "refund", "1")
      const page = yield* ledger.entries(alice.id, { offset: 0, limit: 2 })
      assert.strictEqual(page.total, 3)
      assert.deepStrictEqual(
        page.items.map((e) => [e.cause, e.amount, e.balanceAfter]),
        [
          ["refund", 300, 1000],
          ["order", -300, 700]
        ]
      )
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("Balances.adjust", () => {
  it.effect("credits and debits with a reason, once per key, never below zero", () =>
    Effect.gen(function* () {
      const balances = yield* Balances
      const alice = yield* signUp()
      const credit = yield* balances.adjust({ userId: alice.id, amount: 2500, reason: "bank fee refund", key: "k1" })
      assert.isTrue(credit.created)
      assert.strictEqual(credit.entry.note, "bank fee refund")
      const again = yield* balances.adjust({ userId: alice.id, amount: 2500, reason: "bank fee refund", key: "k1" })
      assert.isFalse(again.created)
      yield* balances.adjust({ userId: alice.id, amount: -500, reason: "correction", key: "k2" })
      assert.strictEqual(yield* balances.balance(alice.id), 2000)
      const overdraw = yield* Effect.flip(balances.adjust({ userId: alice.id, amount: -2001, reason: "x", key: "k3" }))
      assert.strictEqual(overdraw._tag, "InsufficientBalance")
      const db = yield* MemoryDb
      assert.deepStrictEqual(
        [...db.state().outbox.values()].map((e) => [e.kind, e.payload["amountUzs"]]),
        [
          ["balance.adjusted", 2500],
          ["balance.adjusted", -500]
        ]
      )
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("rejects zero, fractions, empty reasons and unknown users", () =>
    Effect.gen(function* () {
      const balances = yield* Balances
      const alice = yield* signUp()
      const tags = yield* Effect.all([
        Effect.flip(balances.adjust({ userId: alice.id, amount: 0, reason: "r", key: "a" })),
        Effect.flip(balances.adjust({ userId: alice.id, amount: 1.5, reason: "r", key: "b" })),
        Effect.flip(balances.adjust({ userId: alice.id, amount: 10, reason: "  ", key: "c" })),
        Effect.flip(balances.adjust({ userId: alice.id, amount: 10, reason: "r", key: "" })),
        Effect.flip(balances.adjust({ userId: 999 as UserId, amount: 10, reason: "r", key: "d" }))
      ])
      assert.deepStrictEqual(
        tags.map((e) => e._tag),
        ["AdjustmentInvalid", "AdjustmentInvalid", "AdjustmentInvalid", "AdjustmentInvalid", "UserNotFound"]
      )
      assert.strictEqual(yield* balances.balance(alice.id), 0)
    }).pipe(Effect.provide(layerMemory))
  )
})

type Op =
  | { readonly kind: "credit"; readonly amount: number }
  | { readonly kind: "debit"; readonly amount: number }
  | { readonly kind: "order"; readonly stars: number }
  | { readonly kind: "fail"; readonly pick: number }
  | { readonly kind: "retry"; readonly pick: number }
  | { readonly kind: "done"; readonly pick: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("credit" as const), amount: fc.integer({ min: 1, max: 200_000 }) }),
  fc.record({ kind: fc.constant("debit" as const), amount: fc.integer({ min: 1, max: 200_000 }) }),
  fc.record({ kind: fc.constant("order" as const), stars: fc.integer({ min: 50, max: 600 }) }),
  fc.record({ kind: fc.constant("fail" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("retry" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("done" as const), pick: fc.nat() })
)

describe("ledger property", () => {
  it("random credit/debit/order/refund/retry sequences: balance == sum(entries) >= 0, each order nets its state", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), (ops) =>
        Effect.runPromise(
          Effect.gen(function* () {
            const balances = yield* Balances
            const orders = yield* OrderService
            const db = yield* MemoryDb
            const alice = yield* signUp()
            const placed: Array<number> = []
            let key = 0
            for (const o of ops) {
              const pick = <A>(xs: ReadonlyArray<A>, n: number) => xs[n % Math.max(1, xs.length)]
              const attempt = Effect.gen(function* () {
                switch (o.kind) {
                  case "credit":
                    return yield* fund(alice, o.amount)
                  case "debit":
                    return yield* balances.adjust({
                      userId: alice.id,
                      amount: -o.amount,
                      reason: "p",
                      key: `d${++key}`
                    })
                  case "order": {
                    const order = yield* orders.create(alice.id, { kind: "stars", recipient: "durov", stars: o.stars })
                    placed.push(order.id)
                    return
                  }
                  case "fail": {
                    const id = pick(placed, o.pick)
                    if (id !== undefined) yield* orders.fail(id as never, "boom")
                    return
                  }
                  case "retry": {
                    const id = pick(placed, o.pick)
                    if (id !== undefined) yield* orders.retry(id as never)
                    return
                  }
                  case "done": {
                    const id = pick(placed, o.pick)
                    if (id !== undefined) yield* orders.markDone(id as never, "tx")
                    return
                  }
                }
              })
              // Rule violations (overdraft, invalid transitions) are expected outcomes; only defects fail the property.
              yield* Effect.result(attempt)
              const balance = yield* balances.balance(alice.id)
              assert.isAtLeast(balance, 0)
              assert.strictEqual(balance, yield* sumOfEntries(alice.id))
            }
            // Every order holds exactly one charge when queued/processing/completed and none when failed.
            const ledger = db.state().ledger
            for (const order of db.state().orders.values()) {
              const net = ledger
                .filter(
                  (e) =>
                    (e.cause === "order" && (e.causeId === `${order.id}` || e.causeId.startsWith(`${order.id}:`))) ||
                    (e.cause === "refund" && (e.causeId === `${order.id}` || e.causeId.startsWith(`${order.id}:`)))
                )
                .reduce((s, e) => s + e.amount, 0)
              assert.strictEqual(net, order.status === "failed" ? 0 : -order.priceUzs)
            }
          }).pipe(Effect.provide(layerMemory))
        )
      ),
      { numRuns: 150 }
    )
  })
})
