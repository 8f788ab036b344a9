/**
 * When a Highload V3 hot wallet sends a further message beside the ones in flight: a lone order goes
 * at once; while a message waits for its block, what becomes ready waits (it would land in the same
 * block anyway), unless a full batch waits (what overflows one message goes beside it) or the latest
 * message went out a block ago (what waits can only join a later block, however late we see it run).
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Duration, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { TestClock } from "effect/testing"
import { BatchedPurchases } from "../src/wallet/BatchedPurchases.ts"
import { makeBatchWorld, order, walletOf } from "./support/BatchWorld.ts"

const wallet = walletOf("highload-v3")

describe("further messages of a Highload V3 hot wallet", () => {
  it.effect(
    "a lone order pays at once; beside a message in flight a full batch goes, or what waits a block after the latest",
    () =>
      Effect.gen(function* () {
        const world = yield* makeBatchWorld({ batchLimit: 3, parallel: 4 })
        const scope = yield* Scope.make()
        const purchases = Context.get(yield* Layer.buildWithScope(world.layer, scope), BatchedPurchases)
        const start = (name: string) => Effect.forkChild(purchases.buy(wallet, order(name)), { startImmediately: true })

        const a = yield* start("a")
        yield* Deferred.await(world.firstSigned)
        assert.deepStrictEqual(world.refsSigned(), [["Ra"]], "nothing in flight: the lone order went at once")

        // Two invoices, less than a full batch, while a's message is in flight: they wait for its block.
        const waiting = [yield* start("b"), yield* start("c")]
        yield* TestClock.adjust("3 seconds")
        assert.deepStrictEqual(world.refsSigned(), [["Ra"]])

        // A third fills a batch: it goes beside the message in flight.
        const d = yield* start("d")
        yield* TestClock.adjust("1 second")
        assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb", "Rc", "Rd"]])
        // (The test clock moves the collector's and the batch's waits along.)
        yield* TestClock.adjust("1 second")
        for (const fiber of [...waiting, d]) assert.strictEqual((yield* Fiber.join(fiber))._tag, "Delivered")

        // a's message still in flight: one more invoice waits while the latest message went out less than a
        // block ago, and goes beside it once that is a block ago.
        const f = yield* start("f")
        yield* TestClock.adjust("2 seconds")
        assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb", "Rc", "Rd"]])
        yield* TestClock.adjust("2 seconds")
        assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb", "Rc", "Rd"], ["Rf"]])
        yield* TestClock.adjust("1 second")
        assert.strictEqual((yield* Fiber.join(f))._tag, "Delivered")

        // Once a's message is settled nothing is in flight: the next order goes at once again.
        yield* Deferred.succeed(world.gate, undefined)
        yield* TestClock.adjust("10 seconds")
        assert.strictEqual((yield* Fiber.join(a))._tag, "Delivered")
        const e = yield* start("e")
        yield* TestClock.adjust("1 second")
        assert.strictEqual((yield* Fiber.join(e))._tag, "Delivered")
        assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb", "Rc", "Rd"], ["Rf"], ["Re"]])
        yield* Scope.close(scope, Exit.succeed(undefined))
      })
  )

  it.effect("the wait for a fuller batch is the operator's block time (HOT_WALLET_BATCH_WAIT)", () =>
    Effect.gen(function* () {
      const world = yield* makeBatchWorld({ batchLimit: 3, parallel: 4, fillWithin: Duration.seconds(2) })
      const scope = yield* Scope.make()
      const purchases = Context.get(yield* Layer.buildWithScope(world.layer, scope), BatchedPurchases)
      const start = (name: string) => Effect.forkChild(purchases.buy(wallet, order(name)), { startImmediately: true })

      const a = yield* start("a")
      yield* Deferred.await(world.firstSigned)
      const b = yield* start("b")
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"]], "less than the wait after the latest message: b waits")
      yield* TestClock.adjust("1500 millis")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb"]], "2 s after the latest message b goes beside it")
      yield* TestClock.adjust("1 second")
      assert.strictEqual((yield* Fiber.join(b))._tag, "Delivered")
      yield* Deferred.succeed(world.gate, undefined)
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual((yield* Fiber.join(a))._tag, "Delivered")
      yield* Scope.close(scope, Exit.succeed(undefined))
    })
  )
})
