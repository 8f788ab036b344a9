/**
 * A graceful stop of batched hot-wallet payments: a batch already taken is finished and recorded,
 * while invoices only queued behind it are never signed (their orders go back unpaid, their invoices
 * are cancelled), whether the orders' fibers are interrupted or the service's own scope closes.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Logger, Option, Scope } from "effect"
import { BatchedPurchases } from "../src/wallet/BatchedPurchases.ts"
import { makeBatchWorld, order, walletOf } from "./support/BatchWorld.ts"

const wallet = walletOf("v5r1")
const makeWorld = makeBatchWorld()

/** Starts an order's purchase at once: it runs until it waits (a quote answered at once: queued). */
const start = (purchases: BatchedPurchases["Service"], name: string) =>
  Effect.forkChild(purchases.buy(wallet, order(name)), { startImmediately: true })

/** The log lines of the effect, kept to read what a stop said. */
const withLines = (lines: Array<string>) =>
  Effect.provide(
    Logger.layer([
      Logger.make(({ message }) => void lines.push(Array.isArray(message) ? message.join(" ") : String(message)))
    ])
  )

/** a's message signed and held in flight; b and c quoted and queued behind it. */
const aInFlightBAndCQueued = Effect.gen(function* () {
  const world = yield* makeWorld
  const scope = yield* Scope.make()
  const purchases = Context.get(yield* Layer.buildWithScope(world.layer, scope), BatchedPurchases)
  const a = yield* start(purchases, "a")
  yield* Deferred.await(world.firstSigned)
  const queued = [yield* start(purchases, "b"), yield* start(purchases, "c")]
  return { a, purchases, queued, scope, world }
})

describe("a graceful stop of batched hot-wallet payments", () => {
  it.effect("orders stopped while queued are never signed; the batch in flight is finished once", () => {
    const lines: Array<string> = []
    return Effect.gen(function* () {
      const { a, purchases, queued, scope, world } = yield* aInFlightBAndCQueued
      // The stop reaches b and c while a's message is in flight: each fiber ends without waiting for it.
      for (const fiber of queued) {
        yield* Fiber.interrupt(fiber)
        assert.isTrue(Exit.hasInterrupts(yield* Fiber.await(fiber)))
      }
      // An order not stopped joins the next batch, which the abandoned invoices no longer take room in.
      const e = yield* start(purchases, "e")
      yield* Deferred.succeed(world.gate, undefined)
      assert.strictEqual((yield* Fiber.join(a))._tag, "Delivered")
      assert.strictEqual((yield* Fiber.join(e))._tag, "Delivered")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Re"]])
      for (const name of ["b", "c"]) assert.isTrue(Option.isNone(yield* world.records.find(`key-${name}`)))
      assert.sameMembers(world.cancelled, ["req-b", "req-c"])
      const paid = yield* world.records.findMany(["key-a", "key-e"])
      assert.deepStrictEqual(
        paid.map((p) => [p.key, p.state, p.txHash]),
        [
          ["key-a", "paid", "tx-0"],
          ["key-e", "paid", "tx-1"]
        ]
      )
      yield* Scope.close(scope, Exit.succeed(undefined))
      assert.include(lines, "wallet payments stopped: 2 queued invoices handed back unsigned")
    }).pipe(withLines(lines))
  })

  it.effect(
    "when the service itself stops, queued orders answer in flight unsigned; the batch in flight is finished once",
    () => {
      const lines: Array<string> = []
      return Effect.gen(function* () {
        const { a, purchases, queued, scope, world } = yield* aInFlightBAndCQueued
        const closing = yield* Effect.forkChild(Scope.close(scope, Exit.succeed(undefined)))
        // Answered while a's message is still in flight: the collector stops before the batch is awaited.
        for (const fiber of queued) assert.strictEqual((yield* Fiber.join(fiber))._tag, "Busy")
        yield* Deferred.succeed(world.gate, undefined)
        yield* Fiber.join(closing)
        assert.strictEqual((yield* Fiber.join(a))._tag, "Delivered")
        // A purchase started once the service has stopped is handed back at once, never signed.
        assert.strictEqual((yield* purchases.buy(wallet, order("late")))._tag, "Busy")
        assert.deepStrictEqual(world.refsSigned(), [["Ra"]])
        assert.sameMembers(world.cancelled, ["req-b", "req-c", "req-late"])
        assert.strictEqual(Option.getOrThrow(yield* world.records.find("key-a")).state, "paid")
        assert.include(lines, "wallet payments stopped: 2 queued invoices handed back unsigned")
      }).pipe(withLines(lines))
    }
  )
})
