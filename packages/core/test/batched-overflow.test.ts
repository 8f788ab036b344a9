/**
 * When a Highload V3 hot wallet holds what is ready for a fuller batch: only once every slot sent
 * within `HOT_WALLET_BATCH_WAIT` (about a block: at most as many messages per block as slots). Even
 * then a full batch goes at once (what overflows one message needs another in the same block), and
 * a lone order with nothing in flight never waits. (A free slot sends at once: batched-free-slot.test.ts.)
 */
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Exit, Fiber, Scope } from "effect"
import { TestClock } from "effect/testing"
import { makeBatchWorld, servePurchases, walletOf } from "./support/BatchWorld.ts"

const wallet = walletOf("highload-v3")

describe("further messages of a Highload V3 hot wallet whose every slot sent lately", () => {
  it.effect("what is ready waits for a full batch, or until the oldest slot's message is a block old", () =>
    Effect.gen(function* () {
      const world = yield* makeBatchWorld({ batchLimit: 3, parallel: 2 })
      const { scope, start } = yield* servePurchases(world, wallet)

      const a = yield* start("a")
      yield* Deferred.await(world.firstSigned)
      const b = yield* start("b")
      yield* TestClock.adjust(0)
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb"]], "a free slot: b went at once")
      assert.strictEqual((yield* Fiber.join(b))._tag, "Delivered")

      // b's message is settled, a's still in flight: both slots sent within the wait (5 s), so two
      // invoices, less than a full batch, wait.
      const waiting = [yield* start("c"), yield* start("d")]
      yield* TestClock.adjust("3 seconds")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb"]])

      // A third fills a batch: it goes at once (the waiting collector looks again every 25 ms).
      const e = yield* start("e")
      yield* TestClock.adjust("100 millis")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb"], ["Rc", "Rd", "Re"]])
      for (const fiber of [...waiting, e]) assert.strictEqual((yield* Fiber.join(fiber))._tag, "Delivered")

      // One more waits while the older of the latest two messages (b's) went out less than 5 s ago.
      yield* TestClock.adjust("900 millis")
      const f = yield* start("f")
      yield* TestClock.adjust("500 millis")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb"], ["Rc", "Rd", "Re"]])
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb"], ["Rc", "Rd", "Re"], ["Rf"]])
      assert.strictEqual((yield* Fiber.join(f))._tag, "Delivered")

      // Once a's message is settled nothing is in flight: the next order goes at once again.
      yield* Deferred.succeed(world.gate, undefined)
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual((yield* Fiber.join(a))._tag, "Delivered")
      const g = yield* start("g")
      yield* TestClock.adjust(0)
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb"], ["Rc", "Rd", "Re"], ["Rf"], ["Rg"]])
      assert.strictEqual((yield* Fiber.join(g))._tag, "Delivered")
      yield* Scope.close(scope, Exit.succeed(undefined))
    })
  )

  it.effect("the wait is the operator's block time (HOT_WALLET_BATCH_WAIT); zero: never", () =>
    Effect.gen(function* () {
      for (const [fillWithin, signedAfter] of [
        [Duration.seconds(2), "2 s after a's message"],
        [Duration.zero, "at once"]
      ] as const) {
        const world = yield* makeBatchWorld({ batchLimit: 3, parallel: 2, fillWithin })
        const { scope, start } = yield* servePurchases(world, wallet)

        const a = yield* start("a")
        yield* Deferred.await(world.firstSigned)
        yield* Fiber.join(yield* start("b"))
        const c = yield* start("c")
        yield* TestClock.adjust("1 second")
        const early = world.refsSigned().length === 3
        assert.strictEqual(early, Duration.isZero(fillWithin), `c is signed ${signedAfter}`)
        yield* TestClock.adjust("1500 millis")
        assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb"], ["Rc"]], `c went ${signedAfter}`)
        assert.strictEqual((yield* Fiber.join(c))._tag, "Delivered")
        yield* Deferred.succeed(world.gate, undefined)
        yield* TestClock.adjust("10 seconds")
        assert.strictEqual((yield* Fiber.join(a))._tag, "Delivered")
        yield* Scope.close(scope, Exit.succeed(undefined))
      }
    })
  )
})
