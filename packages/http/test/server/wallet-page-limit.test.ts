/**
 * The wallet page's limiter as the server gives it (`WalletPageLimiterLive`): with the direct limit
 * shared, the page's posts are counted in PostgreSQL under keys of their own (the direct surface's
 * budget of the same address is untouched); otherwise in memory, with no statement at all.
 */
import { assert, layer } from "@effect/vitest"
import { Throttling } from "@resale/core/throttles/Throttling.ts"
import { PgThrottles } from "@resale/store/PgThrottles.ts"
import { IsolatedPostgres } from "@resale/store/testing/index.ts"
import { walletPostWait } from "@resale/web/gateway/WalletLimit.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { Effect, Layer, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { SqlClient } from "effect/sql/SqlClient"
import { TestClock } from "effect/testing"
import { DirectHttpConfig } from "../../src/direct/DirectConfig.ts"
import { WalletPageLimiterLive } from "../../src/server/WalletCheckoutLive.ts"

const postFrom = (remote: string) =>
  HttpServerRequest.fromWeb(new Request("http://localhost/v2/wallet/quote", { method: "POST" })).modify({
    remoteAddress: Option.some(remote)
  })

const waitWith = (sharedRateLimit: boolean) =>
  walletPostWait.pipe(
    Effect.provide(
      Layer.mergeAll(
        WalletPageLimiterLive.pipe(
          Layer.provide([
            DirectHttpConfig.layerTest({ sharedRateLimit, rateLimit: { perMinute: 2, burst: 2 } }),
            Layer.fresh(Throttling.layer.pipe(Layer.provide(PgThrottles.layer)))
          ])
        ),
        HttpConfig.layerTest()
      )
    )
  )

const rowsOf = (client: string) =>
  Effect.flatMap(Effect.service(SqlClient), (sql) =>
    Effect.map(sql<{ hits: number }>`SELECT hits FROM direct_rate_windows WHERE client = ${client}`, (rows) =>
      rows.map((row) => Number(row.hits))
    )
  )

layer(IsolatedPostgres.layer, { timeout: "60 seconds", excludeTestServices: true })("the wallet page's limit", (it) => {
  it.effect("shared: counted in PostgreSQL under the page's own key, per client address; the third is refused", () =>
    Effect.gen(function* () {
      const wait = yield* waitWith(true)
      const waits = yield* Effect.forEach([1, 2, 3], () => wait(postFrom("198.51.100.9")))
      assert.deepStrictEqual(waits.slice(0, 2), [0, 0])
      assert.isTrue(waits[2]! >= 1 && waits[2]! <= 60, `wait ${waits[2]}`)
      assert.deepStrictEqual(yield* rowsOf("wallet-page 198.51.100.9"), [3])
      assert.deepStrictEqual(yield* rowsOf("198.51.100.9"), [], "the direct surface's budget is another")
      assert.strictEqual(yield* wait(postFrom("198.51.100.10")), 0, "another address has its own count")
    }).pipe(Effect.provide(TestClock.layer()))
  )

  it.effect("in memory: the same limit, and nothing written", () =>
    Effect.gen(function* () {
      const wait = yield* waitWith(false)
      const waits = yield* Effect.forEach([1, 2, 3], () => wait(postFrom("198.51.100.11")))
      assert.deepStrictEqual(waits.slice(0, 2), [0, 0])
      assert.isAtLeast(waits[2]!, 1)
      assert.deepStrictEqual(yield* rowsOf("wallet-page 198.51.100.11"), [])
    }).pipe(Effect.provide(TestClock.layer()))
  )
})
