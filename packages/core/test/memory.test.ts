import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import type { UserId } from "../src/ids.ts"
import { SignedUzs } from "../src/money/Uzs.ts"
import { Payments } from "../src/payments/Payments.ts"
import { Ledger } from "../src/ports/Ledger.ts"
import { Transactor } from "../src/ports/Transactor.ts"
import { signUp } from "../src/testing/fixtures.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { balanceMovement } from "../src/ledger/BalanceMovement.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"
import { TopupService } from "../src/topups/TopupService.ts"

class Boom extends Error {}

const credit = (userId: UserId, amount: number, causeId: string) =>
  Effect.flatMap(Ledger, (l) =>
    l.post(balanceMovement({ userId, amount: SignedUzs.make(amount), cause: "adjust", causeId }))
  )

describe("memory Transactor", () => {
  it.effect("a failed transaction leaves no trace; a successful one keeps everything", () =>
    Effect.gen(function* () {
      const tx = yield* Transactor
      const ledger = yield* Ledger
      const alice = yield* signUp()
      const failed = yield* Effect.result(
        tx.withTransaction(
          Effect.gen(function* () {
            yield* credit(alice.id, 100, "a")
            yield* credit(alice.id, 200, "b")
            return yield* Effect.fail(new Boom())
          })
        )
      )
      assert.isTrue(Result.isFailure(failed))
      assert.strictEqual(yield* ledger.balance(alice.id), 0)
      assert.strictEqual((yield* MemoryDb).state().ledger.length, 0)
      yield* tx.withTransaction(Effect.all([credit(alice.id, 100, "a"), credit(alice.id, 200, "b")]))
      assert.strictEqual(yield* ledger.balance(alice.id), 300)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("defects roll back too", () =>
    Effect.gen(function* () {
      const tx = yield* Transactor
      const alice = yield* signUp()
      yield* Effect.exit(tx.withTransaction(Effect.andThen(credit(alice.id, 100, "a"), Effect.die("bug"))))
      assert.strictEqual(yield* (yield* Ledger).balance(alice.id), 0)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("a nested failure caught by the outer transaction rolls back only the inner part (savepoint)", () =>
    Effect.gen(function* () {
      const tx = yield* Transactor
      const alice = yield* signUp()
      yield* tx.withTransaction(
        Effect.gen(function* () {
          yield* credit(alice.id, 100, "outer")
          yield* Effect.ignore(
            tx.withTransaction(Effect.andThen(credit(alice.id, 50, "inner"), Effect.fail(new Boom())))
          )
        })
      )
      assert.strictEqual(yield* (yield* Ledger).balance(alice.id), 100)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("concurrent transactions are serialised: read-then-write never interleaves", () =>
    Effect.gen(function* () {
      const tx = yield* Transactor
      const ledger = yield* Ledger
      const alice = yield* signUp()
      yield* credit(alice.id, 1000, "seed")
      // each fiber reads the balance, yields, then debits all of it: only serialisation keeps this safe
      const drain = (i: number) =>
        tx.withTransaction(
          Effect.gen(function* () {
            const balance = yield* ledger.balance(alice.id)
            yield* Effect.yieldNow
            if (balance > 0) yield* credit(alice.id, -balance, `drain-${i}`)
            return balance
          })
        )
      const drained = yield* Effect.all(
        Array.from({ length: 5 }, (_, i) => drain(i)),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(
        [...drained].sort((a, b) => b - a),
        [1000, 0, 0, 0, 0]
      )
      assert.strictEqual(yield* ledger.balance(alice.id), 0)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("the same bank message reported concurrently is processed once", () =>
    Effect.gen(function* () {
      const payments = yield* Payments
      const topups = yield* TopupService
      const alice = yield* signUp()
      yield* topups.create(alice.id, 10_000)
      const results = yield* Effect.all(
        Array.from({ length: 4 }, () => payments.incoming({ amountUzs: 10_000, externalId: "same" })),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(results.map((r) => r.outcome).sort(), ["duplicate", "duplicate", "duplicate", "matched"])
      assert.strictEqual(yield* (yield* Ledger).balance(alice.id), 10_000)
    }).pipe(Effect.provide(layerMemory))
  )
})
