import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import { hashRequest, Idempotency } from "../src/idempotency/Idempotency.ts"
import { OrderId } from "../src/ids.ts"
import { Balances } from "../src/ledger/Balances.ts"
import { OrderService } from "../src/orders/OrderService.ts"
import { IdempotencyKeys } from "../src/ports/IdempotencyKeys.ts"
import { fund, signUp } from "../src/testing/fixtures.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"

const Answer = Schema.Struct({ orderId: OrderId, at: Schema.Date })

describe("Idempotency.run", () => {
  it.effect("the same key and body returns the first answer without running again", () =>
    Effect.gen(function* () {
      const idem = yield* Idempotency
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 100_000)
      const body = { username: "durov", amount: 100 }
      const requestHash = yield* hashRequest(body)
      const buy = idem.run(
        { scope: `user:${alice.id}`, endpoint: "orders.stars", key: "k-1", requestHash },
        Answer,
        Effect.map(orders.create(alice.id, { kind: "stars", recipient: "durov", stars: 100 }), (o) => ({
          orderId: o.id,
          at: o.createdAt
        }))
      )
      const first = yield* buy
      yield* TestClock.adjust("1 minute")
      const second = yield* buy
      assert.strictEqual(second.orderId, first.orderId)
      assert.strictEqual(second.at.getTime(), first.at.getTime())
      assert.instanceOf(second.at, Date)
      assert.strictEqual((yield* orders.listOwn(alice.id, { offset: 0, limit: 10 })).total, 1)
      assert.strictEqual(yield* (yield* Balances).balance(alice.id), 77_000)
      // the same key in another scope is another request
      const otherScope = yield* idem.run(
        { scope: "user:other", endpoint: "orders.stars", key: "k-1", requestHash },
        Schema.Number,
        Effect.succeed(5)
      )
      assert.strictEqual(otherScope, 5)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("the same key with another body is a conflict; a key in progress is reported", () =>
    Effect.gen(function* () {
      const idem = yield* Idempotency
      const keys = yield* IdempotencyKeys
      const h1 = yield* hashRequest({ amount: 100, username: "a" })
      const h1Reordered = yield* hashRequest({ username: "a", amount: 100 })
      const h2 = yield* hashRequest({ amount: 101, username: "a" })
      assert.strictEqual(h1, h1Reordered)
      assert.notStrictEqual(h1, h2)
      yield* idem.run({ scope: "s", endpoint: "e", key: "k", requestHash: h1 }, Schema.Number, Effect.succeed(1))
      const conflict = yield* Effect.flip(
        idem.run({ scope: "s", endpoint: "e", key: "k", requestHash: h2 }, Schema.Number, Effect.succeed(2))
      )
      assert.strictEqual(conflict._tag, "IdempotencyKeyConflict")
      const now = new Date(0)
      assert.strictEqual((yield* keys.begin("s", "busy", "e", h1, now))._tag, "New")
      const busy = yield* Effect.flip(
        idem.run({ scope: "s", endpoint: "e", key: "busy", requestHash: h1 }, Schema.Number, Effect.succeed(3))
      )
      assert.strictEqual(busy._tag, "IdempotencyKeyInProgress")
      // a crashed request's key is taken over after 10 minutes
      yield* TestClock.adjust("11 minutes")
      assert.strictEqual(
        yield* idem.run({ scope: "s", endpoint: "e", key: "busy", requestHash: h1 }, Schema.Number, Effect.succeed(3)),
        3
      )
      const invalid = yield* Effect.flip(
        idem.run({ scope: "s", endpoint: "e", key: "x".repeat(256), requestHash: h1 }, Schema.Number, Effect.succeed(4))
      )
      assert.strictEqual(invalid._tag, "IdempotencyKeyInvalid")
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("a failure is not stored: its writes roll back and the key can be used again", () =>
    Effect.gen(function* () {
      const idem = yield* Idempotency
      const orders = yield* OrderService
      const alice = yield* signUp()
      const requestHash = yield* hashRequest({ amount: 100 })
      const buy = idem.run(
        { scope: "s", endpoint: "e", key: "k", requestHash },
        Schema.Number,
        Effect.map(orders.create(alice.id, { kind: "stars", recipient: "durov", stars: 100 }), (o) => o.id as number)
      )
      assert.strictEqual((yield* Effect.flip(buy))._tag, "InsufficientBalance")
      yield* fund(alice, 23_000)
      const id = yield* buy
      assert.strictEqual(yield* buy, id)
      assert.strictEqual((yield* MemoryDb).state().orders.size, 1)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("without a key the effect simply runs each time", () =>
    Effect.gen(function* () {
      const idem = yield* Idempotency
      let runs = 0
      const counted = Effect.sync(() => ++runs)
      yield* idem.run({ scope: "s", endpoint: "e", key: undefined, requestHash: "h" }, Schema.Number, counted)
      yield* idem.run({ scope: "s", endpoint: "e", key: undefined, requestHash: "h" }, Schema.Number, counted)
      assert.strictEqual(runs, 2)
    }).pipe(Effect.provide(layerMemory))
  )
})
