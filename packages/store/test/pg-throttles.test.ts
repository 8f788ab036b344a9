/**
 * The counts every server shares (`Throttles` on PostgreSQL, through the core's `Throttling`): two
 * instances over one database are one budget for an address's wrong tokens; the block doubles and
 * ends; a right token clears the address; failures older than 15 minutes are forgotten.
 */
import { assert, layer } from "@effect/vitest"
import { Throttling } from "@resale/core/throttles/Throttling.ts"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { PgThrottles } from "../src/PgThrottles.ts"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"

/** One server's use case: its own instance over the shared database. */
const instance = Effect.provide(
  Effect.service(Throttling),
  Layer.fresh(Throttling.layer.pipe(Layer.provide(PgThrottles.layer)))
)

layer(IsolatedPostgres.layer, { timeout: "60 seconds", excludeTestServices: true })("shared token failures", (it) => {
  it.effect("two servers, one budget: five free, then a doubling block that ends; a right token clears", () =>
    Effect.gen(function* () {
      const [a, b] = [yield* instance, yield* instance]
      const client = "203.0.113.61"
      const blocks: Array<number> = []
      for (const server of [a, b, a, b]) blocks.push((yield* server.tokenFailed("operator", client)).blockSeconds)
      assert.deepStrictEqual(blocks, [0, 0, 0, 0])
      assert.strictEqual(yield* b.tokenWait("operator", client), 0)
      assert.deepStrictEqual(yield* a.tokenFailed("operator", client), { failures: 5, blockSeconds: 5 })
      assert.strictEqual(yield* b.tokenWait("operator", client), 5, "the other server sees the block")
      assert.strictEqual(yield* b.tokenWait("metrics", client), 0, "another secret has its own budget")
      yield* TestClock.adjust("5 seconds")
      assert.strictEqual(yield* a.tokenWait("operator", client), 0, "the block ends")
      assert.strictEqual((yield* b.tokenFailed("operator", client)).blockSeconds, 10, "and doubles")
      yield* b.tokenSucceeded("operator", client)
      assert.strictEqual(yield* a.tokenWait("operator", client), 0)
      assert.strictEqual((yield* a.tokenFailed("operator", client)).failures, 1, "a right token cleared the count")
      yield* TestClock.adjust("16 minutes")
      assert.strictEqual((yield* b.tokenFailed("operator", client)).failures, 1, "old failures are forgotten")
    }).pipe(Effect.provide(TestClock.layer()))
  )
})
