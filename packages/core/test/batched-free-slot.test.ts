/**
 * A Highload V3 hot wallet with a free slot (fewer than `HOT_WALLET_PARALLEL` messages in flight, and
 * not every slot sent within `HOT_WALLET_BATCH_WAIT`): no order waits. Only while every slot is busy
 * do ready invoices wait, and the first slot to free carries them all in one message.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { TestClock } from "effect/testing"
import { BatchedPurchases } from "../src/wallet/BatchedPurchases.ts"
import { makeBatchWorld, order, walletOf } from "./support/BatchWorld.ts"

const wallet = walletOf("highload-v3")

describe("a Highload V3 hot wallet with free slots", () => {
  it.effect("an order arriving beside a message in flight is sent at once while a slot is free", () =>
    Effect.gen(function* () {
      const world = yield* makeBatchWorld({ batchLimit: 3, parallel: 4 })
      const scope = yield* Scope.make()
      const purchases = Context.get(yield* Layer.buildWithScope(world.layer, scope), BatchedPurchases)
      const start = (name: string) => Effect.forkChild(purchases.buy(wallet, order(name)), { startImmediately: true })

      const a = yield* start("a")
      yield* Deferred.await(world.firstSigned)
      const b = yield* start("b")
      // No time passes on the clock: b is not held for a fuller batch or for a's block.
      yield* TestClock.adjust(0)
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb"]], "b went beside a's message at once")
      assert.strictEqual((yield* Fiber.join(b))._tag, "Delivered", "b settled while a is still in flight")

      yield* Deferred.succeed(world.gate, undefined)
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual((yield* Fiber.join(a))._tag, "Delivered")
      yield* Scope.close(scope, Exit.succeed(undefined))
    })
  )

  it.effect("while every slot is busy orders wait, and the first slot to free carries them all", () =>
    Effect.gen(function* () {
      const world = yield* makeBatchWorld({ batchLimit: 3, parallel: 2, held: 2 })
      const scope = yield* Scope.make()
      const purchases = Context.get(yield* Layer.buildWithScope(world.layer, scope), BatchedPurchases)
      const start = (name: string) => Effect.forkChild(purchases.buy(wallet, order(name)), { startImmediately: true })

      const busy = [yield* start("a")]
      yield* Deferred.await(world.firstSigned)
      busy.push(yield* start("b"))
      yield* TestClock.adjust(0)
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb"]], "two slots, two messages at once")

      // Both slots busy: c and d wait, however long it takes, and never go in messages of their own.
      const waiting = [yield* start("c"), yield* start("d")]
      yield* TestClock.adjust("30 seconds")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb"]])

      yield* Deferred.succeed(world.gate, undefined)
      yield* TestClock.adjust("10 seconds")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb"], ["Rc", "Rd"]], "one message once a slot freed")
      for (const fiber of [...busy, ...waiting]) assert.strictEqual((yield* Fiber.join(fiber))._tag, "Delivered")
      yield* Scope.close(scope, Exit.succeed(undefined))
    })
  )
})
