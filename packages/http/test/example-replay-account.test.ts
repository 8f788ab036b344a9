/**
 * The User, Dashboard and TopupStatus examples replayed (as example-replay.test.ts replays the others):
 * nodira bought the example order and has a top-up waiting, on a database of its own (a top-up's
 * payable amount is unique among recent ones).
 */
import { assert, layer } from "@effect/vitest"
import type { OrderId, UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Effect } from "effect"
import { SCHEMA_EXAMPLES } from "../src/api/OpenApiExamples.ts"
import { call } from "./Client.ts"
import { completedAsDocumented, ExampleWorld as World, setExamplePrices, signInAs } from "./ExampleAccounts.ts"
import { differences } from "./ExampleMatch.ts"
import { TestServer } from "./TestServer.ts"

layer(World, { timeout: "120 seconds", excludeTestServices: true })("the account examples replayed", (it) => {
  it.effect("nodira's dashboard and top-up status equal their examples", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      yield* setExamplePrices(url)
      const user = SCHEMA_EXAMPLES["User"] as { telegram_id: number; username: string }
      const cookie = yield* signInAs(url, user.telegram_id, user.username)
      const userId = (yield* call(url, "/v2/dashboard", { cookie })).json.user.user_id as UserId
      yield* (yield* Balances)
        .adjust({ userId, amount: 150_000, reason: "example", key: "example-dashboard" })
        .pipe(Effect.orDie)
      const api = { "x-api-key": (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key }
      const bought = yield* call(url, "/v2/api/stars/buy", { json: SCHEMA_EXAMPLES["StarsOrderRequest"], headers: api })
      const orders = yield* OrderService
      yield* orders.claimNext
      yield* orders.complete(bought.json.order.order_id as OrderId, completedAsDocumented)
      yield* call(url, "/v2/api/topups", { json: SCHEMA_EXAMPLES["TopupRequest"], headers: api })
      const dashboard = yield* call(url, "/v2/dashboard", { cookie })
      const status = yield* call(url, "/v2/balance/topup-status", { cookie })
      assert.deepStrictEqual(
        {
          Dashboard: differences(SCHEMA_EXAMPLES["Dashboard"], dashboard.json),
          TopupStatus: differences(SCHEMA_EXAMPLES["TopupStatus"], status.json)
        },
        { Dashboard: [], TopupStatus: [] }
      )
    })
  )
})
