/**
 * A Highload V3 hot wallet with a free slot (fewer than `HOT_WALLET_PARALLEL` messages in flight, and
 * not every slot sent within `HOT_WALLET_BATCH_WAIT`): no order waits, unless a rush is still being
 * quoted (then a block after the latest message at most). While every slot is busy ready invoices
 * wait, and the first slot to free carries them all in one message.
 */
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Scope } from "effect"
import { TestClock } from "effect/testing"
import { makeBatchWorld, servePurchases, walletOf } from "./support/BatchWorld.ts"

const wallet = walletOf("highload-v3")

describe("a Highload V3 hot wallet with free slots", () => {
  it.effect("an order arriving beside a message in flight is sent at once while a slot is free", () =>
    Effect.gen(function* () {
      const world = yield* makeBatchWorld({ batchLimit: 3, parallel: 4 })
      const { scope, start } = yield* servePurchases(world, wallet)

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

  it.effect("in a rush (more invoices being quoted than wait) a free slot waits a block after the latest", () =>
    Effect.gen(function* () {
      const world = yield* makeBatchWorld({ batchLimit: 5, parallel: 4, slowQuotes: ["c", "d"] })
      const { scope, start } = yield* servePurchases(world, wallet)

      const a = yield* start("a")
      yield* Deferred.await(world.firstSigned)
      // c and d are still quoting: b waits for them, up to 5 s after a's message.
      const rush = [yield* start("c"), yield* start("d"), yield* start("b")]
      yield* TestClock.adjust("4 seconds")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"]], "b waits while more are being quoted")
      yield* Deferred.succeed(world.quotesGate, undefined)
      yield* TestClock.adjust("100 millis")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Rb", "Rc", "Rd"]], "nothing quoting: what waits goes")
      for (const fiber of rush) assert.strictEqual((yield* Fiber.join(fiber))._tag, "Delivered")

      // Quotes that never come do not hold what is ready longer than 5 s after the latest message.
      const slow = yield* makeBatchWorld({ batchLimit: 5, parallel: 4, slowQuotes: ["w", "y"] })
      const { scope: slowScope, start: begin } = yield* servePurchases(slow, wallet)
      const x = yield* begin("x")
      yield* Deferred.await(slow.firstSigned)
      yield* begin("w")
      yield* begin("y")
      const z = yield* begin("z")
      yield* TestClock.adjust("4 seconds")
      assert.deepStrictEqual(slow.refsSigned(), [["Rx"]])
      yield* TestClock.adjust("1100 millis")
      assert.deepStrictEqual(slow.refsSigned(), [["Rx"], ["Rz"]], "z went 5 s after x's message")
      assert.strictEqual((yield* Fiber.join(z))._tag, "Delivered")

      yield* Deferred.succeed(world.gate, undefined)
      yield* Deferred.succeed(slow.gate, undefined)
      yield* Deferred.succeed(slow.quotesGate, undefined)
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual((yield* Fiber.join(a))._tag, "Delivered")
      assert.strictEqual((yield* Fiber.join(x))._tag, "Delivered")
      yield* Scope.close(scope, Exit.succeed(undefined))
      yield* Scope.close(slowScope, Exit.succeed(undefined))
    })
  )

  it.effect("while every slot is busy orders wait, and the first slot to free carries them all", () =>
    Effect.gen(function* () {
      const world = yield* makeBatchWorld({ batchLimit: 3, parallel: 2, held: 2 })
      const { scope, start } = yield* servePurchases(world, wallet)

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
