import { assert, describe, it } from "@effect/vitest"
import { Effect, Logger, References } from "effect"
import { TestClock } from "effect/testing"
import { OperatorTokenGuard } from "@resale/webkit/OperatorTokenGuard.ts"

/** Every log line's message and annotations, for "every failure is logged". */
const capture = () => {
  const lines: Array<{ message: unknown; annotations: Record<string, unknown> }> = []
  const logger = Logger.make<unknown, void>((options) => {
    lines.push({ message: options.message, annotations: { ...options.fiber.getRef(References.CurrentLogAnnotations) } })
  })
  return { lines, layer: Logger.layer([logger]) }
}

describe("OperatorTokenGuard", () => {
  it.effect("five free failures, then blocks of 5, 10, 20, 40, 60, 60 s; each failure logged", () => {
    const { lines, layer } = capture()
    return Effect.gen(function* () {
      const guard = yield* OperatorTokenGuard.make
      const blocks: Array<number> = []
      for (let i = 0; i < 11; i++) {
        assert.strictEqual(yield* guard.waitFor("a"), 0)
        blocks.push(yield* guard.failed("a", "x-admin-token"))
        const wait = yield* guard.waitFor("a")
        assert.strictEqual(wait, blocks[i])
        // Another address is never held up by this one.
        assert.strictEqual(yield* guard.waitFor("b"), 0)
        yield* TestClock.adjust(`${wait} seconds`)
      }
      assert.deepStrictEqual(blocks, [0, 0, 0, 0, 5, 10, 20, 40, 60, 60, 60])
      assert.strictEqual(lines.length, 11)
      assert.deepInclude(lines[10]!.annotations, {
        client: "a",
        via: "x-admin-token",
        failures: 11,
        blocked_seconds: 60
      })
    }).pipe(Effect.provide(layer))
  })

  it.effect("a right token clears the address; failures are forgotten after 15 quiet minutes", () =>
    Effect.gen(function* () {
      const guard = yield* OperatorTokenGuard.make
      for (let i = 0; i < 4; i++) yield* guard.failed("a", "sign-in form")
      yield* guard.succeeded("a")
      for (let i = 0; i < 4; i++) assert.strictEqual(yield* guard.failed("a", "sign-in form"), 0)
      yield* TestClock.adjust("16 minutes")
      for (let i = 0; i < 4; i++) assert.strictEqual(yield* guard.failed("a", "sign-in form"), 0)
      assert.strictEqual(yield* guard.failed("a", "sign-in form"), 5)
    })
  )
})
