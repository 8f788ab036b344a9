/**
 * The direct purchase surface through the client an integrator generates from `/direct/openapi.json`
 * (`directClient` of @resale/apiclient: openapi-typescript types, openapi-fetch calls), on the sandbox
 * chain (TON VM) and the Fragment simulator, as the direct surface's own tests start them. No casts,
 * no hand-made requests. The wallets' phrases are generated here, held in memory only.
 */
import { assert, layer } from "@effect/vitest"
import { directClient } from "@resale/apiclient"
import { Effect } from "effect"
import { DirectTestEnv, makeDirectTestEnv } from "../../packages/http/test/direct/support/DirectTestServer.ts"
import {
  balanceOf,
  freshAddress,
  fundedWallet,
  nano,
  orderId,
  ton
} from "../../packages/http/test/direct/support/wallets.ts"

/** openapi-fetch's answer: `data` on a 2xx, `error` (the coded body) otherwise. */
interface Answer<T, E> {
  readonly data?: T
  readonly error?: E
  readonly response: Response
}

const send = <T, E>(call: () => Promise<Answer<T, E>>) => Effect.promise(call)

layer(makeDirectTestEnv(), { timeout: "120 seconds", excludeTestServices: true })(
  "the generated direct client",
  (it) => {
    it.effect(
      "POST /coin/transfer with a JSON body and the order id in the query: paid once, replayed, not paid again",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const client = directClient(env.url)
          const { address, phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(5))
          const to = freshAddress()
          const id = orderId("client")
          const transfer = () =>
            client.POST("/coin/transfer", {
              params: { query: { order_id: id } },
              body: { to, amount: 1.25, seed: phrase, comment: "invoice 7" }
            })
          const first = yield* send(transfer)
          assert.strictEqual(first.response.status, 200, JSON.stringify(first.error))
          assert.strictEqual(first.data?.ok, true)
          // the order id came from the query string
          assert.strictEqual(first.data?.order_id, id)
          const fee = nano(first.data?.fee)
          const spent = ton(5) - (yield* balanceOf(env, address))
          assert.strictEqual(spent, ton(1.25) + fee)
          const again = yield* send(transfer)
          assert.deepStrictEqual(again.data, first.data)
          assert.strictEqual(ton(5) - (yield* balanceOf(env, address)), spent)
        }),
      60_000
    )

    it.effect(
      "POST /stars/buy with a JSON body: Fragment is paid and delivers",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const client = directClient(env.url)
          const { address, phrase } = yield* fundedWallet(env, "ton24", "v4r2", ton(20))
          const { data, error, response } = yield* send(() =>
            client.POST("/stars/buy", {
              body: { username: "client_fan", amount: 75, seed: phrase, wallet_version: "v4r2" }
            })
          )
          assert.strictEqual(response.status, 200, JSON.stringify(error))
          assert.deepStrictEqual([data?.ok, data?.username, data?.stars_amount], [true, "client_fan", 75])
          assert.strictEqual(ton(20) - (yield* balanceOf(env, address)), nano(data?.cost))
          assert.deepStrictEqual(
            env.fragment.control
              .invoices()
              .filter((i) => i.username === "client_fan")
              .map((i) => i.status),
            ["done"]
          )
        }),
      60_000
    )

    it.effect(
      "GET /stars/buy with the fields in the query: read from there, and the phrase is asked for in a body",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const client = directClient(env.url)
          const invoices = env.fragment.control.invoices().length
          // the amount is read from the query string: below the minimum, named as such
          const small = yield* send(() =>
            client.GET("/stars/buy", { params: { query: { username: "query_fan", amount: 10 } } })
          )
          assert.deepStrictEqual([small.response.status, small.error?.code], [400, "INVALID_AMOUNT_MIN"])
          // every field but the phrase is in the query and valid: what is missing is the seed, which no URL carries
          const id = orderId("query")
          const noSeed = yield* send(() =>
            client.GET("/stars/buy", {
              params: { query: { username: "query_fan", amount: 75, order_id: id, wallet_version: "v5r1" } }
            })
          )
          assert.deepStrictEqual([noSeed.response.status, noSeed.error?.code], [400, "VALIDATION_ERROR"])
          assert.include(noSeed.error?.message ?? "", "seed is required")
          assert.strictEqual(env.fragment.control.invoices().length, invoices, "nothing was opened")
        }),
      60_000
    )
  }
)
